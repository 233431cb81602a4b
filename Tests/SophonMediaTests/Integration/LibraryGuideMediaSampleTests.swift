import SophonGemini
import SophonMedia
import Testing

/// docs/library.md, "Downscale on retry": `import SophonMedia` works (it is a library product)
/// and its downscaler plugs into a configuration, as the guide shows.
@Suite struct LibraryGuideMediaSampleTests {
    @Test func theGuidesDownscalerSampleCompiles() {
        var configuration = GeminiClientConfiguration()
        configuration.imageDownscaler = MediaImageDownscaler()

        #expect(configuration.imageDownscaler is MediaImageDownscaler)
    }
}
