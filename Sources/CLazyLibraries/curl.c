// libcurl (libcurl4-openssl-dev), as the statically linked FoundationNetworking calls it: each
// function forwards to libcurl's own, which is opened on the first call (lazy_loader.h).
#ifdef __linux__
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>
#include <stdarg.h>

#include "lazy_loader.h"

#define CURL_LIBRARY "libcurl.so.4"

// The variadic functions take exactly one argument after the option (a long, a curl_off_t, a
// pointer or a function pointer), which on the 64-bit Linux ABIs Swift supports is passed as
// one 64-bit integer-class value: it is read and passed on as such.
#define CURL_ONE_VARIADIC(last, call)                                                           \
    va_list arguments;                                                                          \
    va_start(arguments, last);                                                                  \
    void *argument = va_arg(arguments, void *);                                                 \
    va_end(arguments);                                                                          \
    return call;

CURL *curl_easy_init(void) {
    SOPHON_LAZY(CURL_LIBRARY, curl_easy_init)
    return curl_easy_init_target();
}

CURLcode curl_easy_setopt(CURL *curl, CURLoption option, ...) {
    SOPHON_LAZY(CURL_LIBRARY, curl_easy_setopt)
    CURL_ONE_VARIADIC(option, curl_easy_setopt_target(curl, option, argument))
}

CURLcode curl_easy_getinfo(CURL *curl, CURLINFO info, ...) {
    SOPHON_LAZY(CURL_LIBRARY, curl_easy_getinfo)
    CURL_ONE_VARIADIC(info, curl_easy_getinfo_target(curl, info, argument))
}

void curl_easy_cleanup(CURL *curl) {
    SOPHON_LAZY(CURL_LIBRARY, curl_easy_cleanup)
    curl_easy_cleanup_target(curl);
}

CURLcode curl_easy_pause(CURL *handle, int bitmask) {
    SOPHON_LAZY(CURL_LIBRARY, curl_easy_pause)
    return curl_easy_pause_target(handle, bitmask);
}

const char *curl_easy_strerror(CURLcode code) {
    SOPHON_LAZY(CURL_LIBRARY, curl_easy_strerror)
    return curl_easy_strerror_target(code);
}

void curl_free(void *p) {
    SOPHON_LAZY(CURL_LIBRARY, curl_free)
    curl_free_target(p);
}

CURLcode curl_global_init(long flags) {
    SOPHON_LAZY(CURL_LIBRARY, curl_global_init)
    return curl_global_init_target(flags);
}

CURLM *curl_multi_init(void) {
    SOPHON_LAZY(CURL_LIBRARY, curl_multi_init)
    return curl_multi_init_target();
}

CURLMcode curl_multi_setopt(CURLM *multi_handle, CURLMoption option, ...) {
    SOPHON_LAZY(CURL_LIBRARY, curl_multi_setopt)
    CURL_ONE_VARIADIC(option, curl_multi_setopt_target(multi_handle, option, argument))
}

CURLMcode curl_multi_add_handle(CURLM *multi_handle, CURL *curl_handle) {
    SOPHON_LAZY(CURL_LIBRARY, curl_multi_add_handle)
    return curl_multi_add_handle_target(multi_handle, curl_handle);
}

CURLMcode curl_multi_remove_handle(CURLM *multi_handle, CURL *curl_handle) {
    SOPHON_LAZY(CURL_LIBRARY, curl_multi_remove_handle)
    return curl_multi_remove_handle_target(multi_handle, curl_handle);
}

CURLMcode curl_multi_assign(CURLM *multi_handle, curl_socket_t sockfd, void *sockp) {
    SOPHON_LAZY(CURL_LIBRARY, curl_multi_assign)
    return curl_multi_assign_target(multi_handle, sockfd, sockp);
}

CURLMcode curl_multi_cleanup(CURLM *multi_handle) {
    SOPHON_LAZY(CURL_LIBRARY, curl_multi_cleanup)
    return curl_multi_cleanup_target(multi_handle);
}

CURLMsg *curl_multi_info_read(CURLM *multi_handle, int *msgs_in_queue) {
    SOPHON_LAZY(CURL_LIBRARY, curl_multi_info_read)
    return curl_multi_info_read_target(multi_handle, msgs_in_queue);
}

CURLMcode curl_multi_socket_action(CURLM *multi_handle, curl_socket_t s, int ev_bitmask,
                                   int *running_handles) {
    SOPHON_LAZY(CURL_LIBRARY, curl_multi_socket_action)
    return curl_multi_socket_action_target(multi_handle, s, ev_bitmask, running_handles);
}

struct curl_slist *curl_slist_append(struct curl_slist *list, const char *data) {
    SOPHON_LAZY(CURL_LIBRARY, curl_slist_append)
    return curl_slist_append_target(list, data);
}

void curl_slist_free_all(struct curl_slist *list) {
    SOPHON_LAZY(CURL_LIBRARY, curl_slist_free_all)
    curl_slist_free_all_target(list);
}

CURLU *curl_url(void) {
    SOPHON_LAZY(CURL_LIBRARY, curl_url)
    return curl_url_target();
}

CURLUcode curl_url_get(CURLU *handle, CURLUPart what, char **part, unsigned int flags) {
    SOPHON_LAZY(CURL_LIBRARY, curl_url_get)
    return curl_url_get_target(handle, what, part, flags);
}

CURLUcode curl_url_set(CURLU *handle, CURLUPart what, const char *part, unsigned int flags) {
    SOPHON_LAZY(CURL_LIBRARY, curl_url_set)
    return curl_url_set_target(handle, what, part, flags);
}

char *curl_version(void) {
    SOPHON_LAZY(CURL_LIBRARY, curl_version)
    return curl_version_target();
}

curl_version_info_data *curl_version_info(CURLversion version) {
    SOPHON_LAZY(CURL_LIBRARY, curl_version_info)
    return curl_version_info_target(version);
}
#endif
