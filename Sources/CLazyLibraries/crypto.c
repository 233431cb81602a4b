// libcrypto (libssl-dev), as Vertex AI's RS256 signer calls it (Sources/COpenSSL/shim.h): each
// function forwards to libcrypto's own, which is opened on the first call (lazy_loader.h).
#ifdef __linux__
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include "lazy_loader.h"

#define CRYPTO_LIBRARY "libcrypto.so.3"

BIO *BIO_new_mem_buf(const void *buf, int len) {
    SOPHON_LAZY(CRYPTO_LIBRARY, BIO_new_mem_buf)
    return BIO_new_mem_buf_target(buf, len);
}

int BIO_free(BIO *a) {
    SOPHON_LAZY(CRYPTO_LIBRARY, BIO_free)
    return BIO_free_target(a);
}

EVP_PKEY *PEM_read_bio_PrivateKey(BIO *out, EVP_PKEY **x, pem_password_cb *cb, void *u) {
    SOPHON_LAZY(CRYPTO_LIBRARY, PEM_read_bio_PrivateKey)
    return PEM_read_bio_PrivateKey_target(out, x, cb, u);
}

int EVP_PKEY_get_base_id(const EVP_PKEY *pkey) {
    SOPHON_LAZY(CRYPTO_LIBRARY, EVP_PKEY_get_base_id)
    return EVP_PKEY_get_base_id_target(pkey);
}

void EVP_PKEY_free(EVP_PKEY *pkey) {
    SOPHON_LAZY(CRYPTO_LIBRARY, EVP_PKEY_free)
    EVP_PKEY_free_target(pkey);
}

EVP_MD_CTX *EVP_MD_CTX_new(void) {
    SOPHON_LAZY(CRYPTO_LIBRARY, EVP_MD_CTX_new)
    return EVP_MD_CTX_new_target();
}

void EVP_MD_CTX_free(EVP_MD_CTX *ctx) {
    SOPHON_LAZY(CRYPTO_LIBRARY, EVP_MD_CTX_free)
    EVP_MD_CTX_free_target(ctx);
}

const EVP_MD *EVP_sha256(void) {
    SOPHON_LAZY(CRYPTO_LIBRARY, EVP_sha256)
    return EVP_sha256_target();
}

int EVP_DigestSignInit(EVP_MD_CTX *ctx, EVP_PKEY_CTX **pctx, const EVP_MD *type, ENGINE *e,
                       EVP_PKEY *pkey) {
    SOPHON_LAZY(CRYPTO_LIBRARY, EVP_DigestSignInit)
    return EVP_DigestSignInit_target(ctx, pctx, type, e, pkey);
}

int EVP_DigestSign(EVP_MD_CTX *ctx, unsigned char *sigret, size_t *siglen, const unsigned char *tbs,
                   size_t tbslen) {
    SOPHON_LAZY(CRYPTO_LIBRARY, EVP_DigestSign)
    return EVP_DigestSign_target(ctx, sigret, siglen, tbs, tbslen);
}
#endif
