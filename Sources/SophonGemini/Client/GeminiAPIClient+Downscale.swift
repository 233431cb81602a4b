import Foundation

extension GeminiAPIClient {
    /// `request` as the attempt `variant` sends it: unchanged before any transport failure or
    /// without a configured ``GeminiClientConfiguration/imageDownscaler``; otherwise with its
    /// image parts re-encoded at the variant's step (``GeminiMediaDownscale``).
    func downscaled(_ request: GenerateContentRequest, for variant: GeminiRequestVariant)
        -> GenerateContentRequest
    {
        guard variant.downscaleStep > 0, let downscaler = configuration.imageDownscaler else {
            return request
        }
        return GeminiMediaDownscale.apply(to: request, step: variant.downscaleStep, downscaler: downscaler)
    }
}
