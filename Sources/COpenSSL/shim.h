// The system OpenSSL's libcrypto (libssl-dev on Linux): RS256 signatures of the JWT bearer
// grant (docs/vertex.md). One call per use, so Swift never handles an OpenSSL object.
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <stddef.h>

// Signs `data` with the PEM private key `pem` by RSASSA-PKCS1-v1_5 with SHA-256 (RS256).
// Returns the signature's length in `signature` (room for `capacity` bytes), -1 when the PEM
// holds no usable private key, -2 when the key is not RSA, -3 when signing failed or the
// signature does not fit.
static inline int sophon_rs256_sign(const char *pem, size_t pem_length, const unsigned char *data,
                                    size_t data_length, unsigned char *signature, size_t capacity) {
    BIO *bio = BIO_new_mem_buf(pem, (int)pem_length);
    if (bio == NULL) return -1;
    EVP_PKEY *key = PEM_read_bio_PrivateKey(bio, NULL, NULL, NULL);
    BIO_free(bio);
    if (key == NULL) return -1;
    if (EVP_PKEY_base_id(key) != EVP_PKEY_RSA) {
        EVP_PKEY_free(key);
        return -2;
    }
    int result = -3;
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    size_t length = capacity;
    if (context != NULL && EVP_DigestSignInit(context, NULL, EVP_sha256(), NULL, key) == 1 &&
        EVP_DigestSign(context, signature, &length, data, data_length) == 1) {
        result = (int)length;
    }
    EVP_MD_CTX_free(context);
    EVP_PKEY_free(key);
    return result;
}
