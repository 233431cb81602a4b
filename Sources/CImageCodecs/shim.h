#ifndef SOPHON_CIMAGECODECS_SHIM_H
#define SOPHON_CIMAGECODECS_SHIM_H

// The image codecs SophonMedia uses on Linux: libjpeg-turbo's TurboJPEG API, libpng 1.6 and
// libwebp, from the apt packages libturbojpeg0-dev, libpng-dev and libwebp-dev.
//
// Why a shim: Swift cannot import function-like macros (PNG_IMAGE_SIZE, TJSCALED), and it
// cannot use libpng's classic API at all, because libpng reports errors by longjmp back to a
// setjmp the caller made, and Swift has no setjmp. The wrappers below use libpng's
// "simplified" png_image API instead: it makes its own setjmp inside libpng and returns 0 with
// a message in png_image.message, so no jump ever crosses a Swift frame. These functions are
// static inline and keep no state (a static variable in a header would exist once per
// translation unit).

#include <png.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <turbojpeg.h>
#include <webp/decode.h>
#include <webp/encode.h>

/// Reads a PNG's header from memory into `image` (width, height; no pixel buffer yet).
/// Returns 1 on success; 0 on failure, with the reason in image->message.
static inline int sophon_png_begin_read(png_image *image, const void *data, size_t size) {
    memset(image, 0, sizeof *image);
    image->version = PNG_IMAGE_VERSION;
    return png_image_begin_read_from_memory(image, data, size);
}

/// The bytes an 8-bit RGBA buffer for `image` needs (width * height * 4).
static inline size_t sophon_png_rgba_size(const png_image *image) {
    return (size_t)image->width * (size_t)image->height * 4;
}

/// Decodes the PNG whose header `image` holds into `buffer` as 8-bit sRGB RGBA, not
/// premultiplied, rows top to bottom without padding. `buffer_size` must be at least
/// sophon_png_rgba_size(image). Frees libpng's state in every case. Returns 1 on success.
static inline int sophon_png_finish_read_rgba(png_image *image, void *buffer, size_t buffer_size) {
    image->format = PNG_FORMAT_RGBA;
    if (buffer_size < PNG_IMAGE_SIZE(*image)) {
        png_image_free(image);
        return 0;
    }
    return png_image_finish_read(image, NULL, buffer, 0, NULL);
}

/// Frees what libpng holds for `image` after a successful sophon_png_begin_read that is not
/// followed by sophon_png_finish_read_rgba.
static inline void sophon_png_abandon(png_image *image) {
    png_image_free(image);
}

/// Encodes 8-bit RGBA `pixels` (width * height * 4 bytes) as PNG into `out` (capacity
/// `*out_size`). With `out` NULL, only stores the bytes needed in `*out_size`. Returns 1 on
/// success.
static inline int sophon_png_write_rgba(
    const void *pixels, uint32_t width, uint32_t height, void *out, size_t *out_size) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = width;
    image.height = height;
    image.format = PNG_FORMAT_RGBA;
    return png_image_write_to_memory(&image, out, out_size, 0, pixels, 0, NULL);
}

/// TJSCALED: `dimension` scaled by `num`/`denom`, rounded up as libjpeg-turbo does.
static inline int sophon_tj_scaled(int dimension, int num, int denom) {
    tjscalingfactor factor = {num, denom};
    return TJSCALED(dimension, factor);
}

#endif
