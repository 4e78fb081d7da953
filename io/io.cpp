// .npy and PNG files in and out of Halide buffers; io.h says what is accepted. The .npy reader
// checks the whole header, the sizes and the file's length before it allocates; the PNG reader
// runs libpng's checks, then sizes the image against the same limits and against the bytes left
// in the file before it asks libpng for pixels.
#include "fuselab/io.h"

#include <fcntl.h>
#include <png.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csetjmp>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <new>

#include "fuselab/dtype.h"
#include "fuselab/error.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the .npy reader and writer store float32 as it lies in memory: little-endian hosts only"
#endif

namespace fuselab {
namespace {

using Halide::Runtime::Buffer;

constexpr uint64_t kMaxElements = std::numeric_limits<int32_t>::max();  // Halide's buffer limit
constexpr int kMaxRank = 4;
constexpr size_t kMaxNpyHeader = 10000;  // numpy's own default max_header_size
constexpr png_uint_32 kMaxPngSide = 1u << 24;
// Deflate turns at most 258 bytes into 2 bits: no PNG holds more than 1032 bytes of filtered
// pixel rows per byte of file (bounded here with some slack).
constexpr uint64_t kMaxInflateRatio = 1040;

[[noreturn]] void fail_read(const std::string &name, const std::string &why) {
    throw Error("cannot read " + name + ": " + why);
}

[[noreturn]] void fail_write(const std::string &name, const std::string &why) {
    throw Error("cannot write " + name + ": " + why);
}

std::string errno_text(int err) {
    return std::strerror(err);
}

std::string bytes_text(uint64_t n) {
    char text[64];
    const auto bytes = static_cast<unsigned long long>(n);
    if (n < (1u << 20)) {
        std::snprintf(text, sizeof(text), "%llu bytes", bytes);
    } else if (n < (1u << 30)) {
        std::snprintf(text, sizeof(text), "%llu bytes (%.1f MiB)", bytes, double(n) / (1u << 20));
    } else {
        std::snprintf(text, sizeof(text), "%llu bytes (%.1f GiB)", bytes, double(n) / (1u << 30));
    }
    return text;
}

std::string u128_text(unsigned __int128 n) {
    std::string digits;
    do {
        digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(n % 10)));
        n /= 10;
    } while (n != 0);
    return digits;
}

// What this process may allocate: physical memory, or less under ulimit -v or -d.
struct ByteLimit {
    uint64_t bytes = std::numeric_limits<uint64_t>::max();
    const char *what = "";
};

ByteLimit byte_limit() {
    ByteLimit limit;
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    if (pages > 0 && page > 0) {
        limit = {static_cast<uint64_t>(pages) * static_cast<uint64_t>(page),
                 "this machine's physical memory"};
    }
    const struct {
        int resource;
        const char *what;
    } rlimits[] = {{RLIMIT_AS, "this process's address-space limit (ulimit -v)"},
                   {RLIMIT_DATA, "this process's data-size limit (ulimit -d)"}};
    for (const auto &r : rlimits) {
        struct rlimit rl;
        if (getrlimit(r.resource, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
            rl.rlim_cur < limit.bytes) {
            limit = {static_cast<uint64_t>(rl.rlim_cur), r.what};
        }
    }
    return limit;
}

// Empty unless `bytes` fits under byte_limit(); else the reason, naming `what`.
std::string over_byte_limit(uint64_t bytes, const std::string &what) {
    const ByteLimit limit = byte_limit();
    if (bytes <= limit.bytes) return "";
    return what + " needs " + bytes_text(bytes) + ", more than " + limit.what + " (" +
           bytes_text(limit.bytes) + ")";
}

// Halide::Runtime::Buffer's own allocation does not check for failure; this one throws.
void *checked_malloc(size_t n) {
    void *p = std::malloc(n);
    if (!p) throw std::bad_alloc();
    return p;
}

// Dense (Halide order) float storage for `extents`, or `fail` with the reason.
template <typename Fail>
Buffer<float> allocate_floats(const std::vector<int> &extents, const std::string &what, Fail fail) {
    uint64_t n = 1;
    for (int e : extents) {
        if (e < 0) fail(what + " has a negative extent (" + std::to_string(e) + ")");
        n *= static_cast<uint64_t>(e);
        if (n > kMaxElements) {
            fail(what + " has more than " + std::to_string(kMaxElements) +
                 " elements (Halide's limit)");
        }
    }
    const std::string over = over_byte_limit(n * sizeof(float), what);
    if (!over.empty()) fail(over);
    Buffer<float> b(static_cast<float *>(nullptr), extents);
    try {
        b.allocate(checked_malloc, std::free);
    } catch (const std::bad_alloc &) {
        fail("out of memory allocating " + bytes_text(n * sizeof(float)) + " for " + what);
    }
    return b;
}

// Bytes from the stream's position to its end (the position is kept).
uint64_t remaining_bytes(FILE *f, const std::string &name) {
    const off_t here = ftello(f);
    if (here < 0 || fseeko(f, 0, SEEK_END) != 0) {
        const int err = errno;
        fail_read(name, "cannot find the end of the file (" + errno_text(err) + ")");
    }
    const off_t end = ftello(f);
    if (end < here || fseeko(f, here, SEEK_SET) != 0) {
        const int err = errno;
        fail_read(name, "cannot find the end of the file (" + errno_text(err) + ")");
    }
    return static_cast<uint64_t>(end - here);
}

bool ends_with_ci(const std::string &s, const char *suffix) {
    const size_t n = std::strlen(suffix);
    if (s.size() < n) return false;
    for (size_t i = 0; i < n; i++) {
        const char c = s[s.size() - n + i];
        if ((c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c) != suffix[i]) return false;
    }
    return true;
}

std::string extension_of(const std::string &path) {
    const size_t slash = path.rfind('/');
    const size_t dot = path.rfind('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
    return path.substr(dot);
}

const char *kind_of(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

std::string directory_of(const std::string &path) {
    const size_t slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
}

// What a file starts with, for "not a ... file" messages.
std::string looks_like(const unsigned char *head, size_t n) {
    static const unsigned char png_sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (n >= 6 && std::memcmp(head, "\x93NUMPY", 6) == 0) return " (it looks like a .npy file)";
    if (n >= 8 && std::memcmp(head, png_sig, 8) == 0) return " (it looks like a PNG file)";
    return "";
}

struct FileCloser {
    void operator()(FILE *f) const { std::fclose(f); }
};
using File = std::unique_ptr<FILE, FileCloser>;

File open_input(const std::string &path) {
    check_input_path(path);
    // O_NONBLOCK: should the path have become a FIFO since the check, open must not wait.
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) fail_read(path, errno_text(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        fail_read(path, "not a regular file");
    }
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        const int err = errno;
        close(fd);
        fail_read(path, errno_text(err));
    }
    return File(f);
}

// --- .npy -------------------------------------------------------------------------------------

struct NpyHeader {
    std::string descr;
    bool fortran_order = false;
    std::vector<int64_t> shape;  // numpy order; entries saturate at +-INT64_MAX
    std::string shape_text;      // as written, for messages
};

// The header is a Python dict literal; this accepts the subset that numpy writes and that
// ast.literal_eval would read the same way: quoted keys and strings without escapes, True and
// False, a tuple of decimal integers, whitespace and trailing commas. Anything else is refused.
class NpyHeaderParser {
public:
    NpyHeaderParser(const std::string &text, const std::string &name) : s_(text), name_(name) {}

    NpyHeader parse() {
        for (size_t k = 0; k < s_.size(); k++) {
            const unsigned char c = static_cast<unsigned char>(s_[k]);
            if ((c < 0x20 || c > 0x7e) && c != '\t' && c != '\n' && c != '\r') {
                char what[64];
                std::snprintf(what, sizeof(what),
                              "byte 0x%02x at offset %zu is not printable ASCII", c, k);
                fail(what);
            }
        }
        NpyHeader h;
        bool have_descr = false, have_fortran = false, have_shape = false;
        expect('{', "to open the header dict");
        while (!peek('}')) {
            const std::string key = quoted("a key");
            expect(':', ("after the key '" + key + "'").c_str());
            if (key == "descr") {
                if (have_descr) fail("the key 'descr' appears twice");
                have_descr = true;
                if (peek('[') || peek('(') || peek('{')) {
                    fail_read(name_,
                              "structured dtypes are not supported: expected float32 ('<f4')");
                }
                h.descr = quoted("the value of 'descr'");
            } else if (key == "fortran_order") {
                if (have_fortran) fail("the key 'fortran_order' appears twice");
                have_fortran = true;
                h.fortran_order = boolean();
            } else if (key == "shape") {
                if (have_shape) fail("the key 'shape' appears twice");
                have_shape = true;
                shape(&h);
            } else {
                fail("unexpected key '" + key +
                     "' (a .npy header holds exactly 'descr', 'fortran_order' and 'shape')");
            }
            if (peek(',')) {
                i_++;
            } else if (!peek('}')) {
                fail("expected ',' or '}' after the value of '" + key + "'" + found());
            }
        }
        i_++;
        skip_space();
        if (i_ != s_.size()) fail("unexpected text after the closing '}'" + found());
        if (!have_descr) fail("the key 'descr' is missing");
        if (!have_fortran) fail("the key 'fortran_order' is missing");
        if (!have_shape) fail("the key 'shape' is missing");
        return h;
    }

private:
    [[noreturn]] void fail(const std::string &what) const {
        size_t end = s_.size();  // without numpy's padding
        while (end > 0 && (s_[end - 1] == ' ' || s_[end - 1] == '\n')) end--;
        std::string excerpt;  // printable, whatever the header holds
        for (size_t k = 0; k < end && k < 120; k++) {
            const unsigned char c = static_cast<unsigned char>(s_[k]);
            char esc[8];
            std::snprintf(esc, sizeof(esc), "\\x%02x", c);
            excerpt += c == '\n' ? "\\n" : c >= 0x20 && c < 0x7f ? std::string(1, char(c)) : esc;
        }
        fail_read(name_, "malformed .npy header: " + what + " (header: " + excerpt +
                             (end > 120 ? "..." : "") + ")");
    }

    std::string found() const {
        if (i_ >= s_.size()) return ", but the header ends";
        return std::string(", found '") + s_[i_] + "' at offset " + std::to_string(i_);
    }

    void skip_space() {
        while (i_ < s_.size() &&
               (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) {
            i_++;
        }
    }

    bool peek(char c) {
        skip_space();
        return i_ < s_.size() && s_[i_] == c;
    }

    void expect(char c, const char *where) {
        if (!peek(c)) fail(std::string("expected '") + c + "' " + where + found());
        i_++;
    }

    static bool is_word_char(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_' || c == '.';
    }

    std::string quoted(const char *what) {
        skip_space();
        if (i_ >= s_.size() || (s_[i_] != '\'' && s_[i_] != '"')) {
            fail(std::string("expected a quoted string as ") + what + found());
        }
        const char quote = s_[i_++];
        const size_t start = i_;
        while (i_ < s_.size() && s_[i_] != quote) {
            if (s_[i_] == '\\') fail("escape sequences in strings are not supported");
            if (s_[i_] == '\n' || s_[i_] == '\r') fail("a string runs past the end of its line");
            i_++;
        }
        if (i_ >= s_.size()) fail("a string is not closed");
        return s_.substr(start, i_++ - start);
    }

    bool boolean() {
        skip_space();
        for (const auto &[word, value] : {std::pair<const char *, bool>{"True", true},
                                          std::pair<const char *, bool>{"False", false}}) {
            const size_t n = std::strlen(word);
            if (s_.compare(i_, n, word) == 0 &&
                (i_ + n == s_.size() || !is_word_char(s_[i_ + n]))) {
                i_ += n;
                return value;
            }
        }
        fail("'fortran_order' must be True or False" + found());
    }

    int64_t integer() {
        skip_space();
        const bool negative = i_ < s_.size() && s_[i_] == '-';
        if (negative) i_++;
        if (i_ >= s_.size() || s_[i_] < '0' || s_[i_] > '9') {
            fail("expected an integer in the shape" + found());
        }
        if (s_[i_] == '0' && i_ + 1 < s_.size() && is_word_char(s_[i_ + 1])) {
            fail("shape entries must be plain decimal integers" + found());
        }
        int64_t v = 0;
        constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
        while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') {
            const int d = s_[i_++] - '0';
            v = v > (kMax - d) / 10 ? kMax : v * 10 + d;
        }
        if (i_ < s_.size() && is_word_char(s_[i_])) {
            fail("shape entries must be plain decimal integers" + found());
        }
        return negative ? -v : v;
    }

    void shape(NpyHeader *h) {
        skip_space();
        const size_t start = i_;
        if (peek('[')) fail("the shape must be a tuple, not a list");
        expect('(', "to open the shape tuple");
        bool trailing_comma = false;
        while (!peek(')')) {
            h->shape.push_back(integer());
            trailing_comma = peek(',');
            if (trailing_comma) {
                i_++;
            } else if (!peek(')')) {
                fail("expected ',' or ')' in the shape" + found());
            }
        }
        i_++;
        if (h->shape.size() == 1 && !trailing_comma) {
            fail("'(" + std::to_string(h->shape[0]) +
                 ")' is not a tuple: a one-dimensional shape is written (N,)");
        }
        h->shape_text = s_.substr(start, i_ - start);
    }

    const std::string &s_;
    const std::string &name_;
    size_t i_ = 0;
};

// Empty if the descr is little-endian float32, else why not.
std::string check_descr(const std::string &descr) {
    if (descr == "<f4") return "";
    const char order = descr.empty() ? '\0' : descr[0];
    const bool has_order = order == '<' || order == '>' || order == '=' || order == '|';
    const std::string code = has_order ? descr.substr(1) : descr;
    if (code == "f4" || code == "f" || code == "float32") {
        if (order == '>') {
            return "big-endian float32 ('" + descr +
                   "') is not supported: expected little-endian '<f4' (numpy: "
                   "a.astype('<f4'))";
        }
        return "dtype '" + descr +
               "' leaves the byte order to the reading machine: expected an explicit "
               "little-endian float32 ('<f4')";
    }
    static const struct {
        const char *code, *name;
    } known[] = {{"f2", "float16"},   {"f8", "float64"},     {"f16", "float128"},
                 {"i1", "int8"},      {"i2", "int16"},       {"i4", "int32"},
                 {"i8", "int64"},     {"u1", "uint8"},       {"u2", "uint16"},
                 {"u4", "uint32"},    {"u8", "uint64"},      {"b1", "bool"},
                 {"c8", "complex64"}, {"c16", "complex128"}, {"O", "Python objects"}};
    std::string what = "dtype '" + descr + "'";
    for (const auto &k : known) {
        if (code == k.code) what += " (" + std::string(k.name) + ")";
    }
    return what + " is not supported: expected float32 ('<f4')";
}

// --- PNG: libpng's classic API. Its errors longjmp back to the setjmp in the png_* functions
// below, which hold no C++ objects; everything they fill lives in these structs. --------------

struct PngMessages {
    char error[256] = {};
    char warnings[256] = {};  // libpng's warnings, joined: often the reason behind an error
};

void png_on_error(png_structp png, png_const_charp msg) {
    auto *m = static_cast<PngMessages *>(png_get_error_ptr(png));
    std::snprintf(m->error, sizeof(m->error), "%s", msg ? msg : "unknown libpng error");
    png_longjmp(png, 1);
}

void png_on_warning(png_structp png, png_const_charp msg) {
    auto *m = static_cast<PngMessages *>(png_get_error_ptr(png));
    const size_t used = std::strlen(m->warnings);
    if (msg && used + 3 < sizeof(m->warnings)) {
        std::snprintf(m->warnings + used, sizeof(m->warnings) - used, "%s%s", used ? "; " : "",
                      msg);
    }
}

std::string png_failure(const PngMessages &m) {
    std::string text = m.error[0] ? m.error : "libpng failed";
    if (m.warnings[0] && std::strstr(m.warnings, m.error) == nullptr) {
        text += std::string(" (") + m.warnings + ")";
    }
    return "invalid PNG: " + text;
}

void png_read_from_file(png_structp png, png_bytep data, size_t length) {
    FILE *f = static_cast<FILE *>(png_get_io_ptr(png));
    if (std::fread(data, 1, length, f) != length) {
        png_error(png, std::ferror(f) ? "read error" : "unexpected end of file (truncated)");
    }
}

void png_write_to_file(png_structp png, png_bytep data, size_t length) {
    FILE *f = static_cast<FILE *>(png_get_io_ptr(png));
    if (std::fwrite(data, 1, length, f) != length) png_error(png, std::strerror(errno));
}

void png_flush_file(png_structp png) {
    std::fflush(static_cast<FILE *>(png_get_io_ptr(png)));  // checked after the last write
}

struct PngReader {
    FILE *file = nullptr;
    png_structp png = nullptr;
    png_infop info = nullptr;
    PngMessages messages;
    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    bool has_trns = false;
    png_color palette[256] = {};  // palette images: the colours and the alphas (tRNS)
    png_byte alpha[256] = {};
    int num_palette = 0, num_alpha = 0;
    int channels = 0, decoded_bit_depth = 0;  // as libpng will deliver rows
    size_t rowbytes = 0;
};

bool png_read_header(PngReader *r) {
    if (setjmp(png_jmpbuf(r->png))) return false;
    png_set_read_fn(r->png, r->file, png_read_from_file);
    png_set_sig_bytes(r->png, 8);
    png_set_user_limits(r->png, kMaxPngSide, kMaxPngSide);
    png_set_chunk_cache_max(r->png, 1000);
    png_set_chunk_malloc_max(r->png, 8u << 20);
    png_set_benign_errors(r->png, 0);  // libpng's "benign" errors are errors here
#ifndef FUSELAB_FUZZ_IGNORE_CHECKSUMS
    png_set_crc_action(r->png, PNG_CRC_ERROR_QUIT, PNG_CRC_ERROR_QUIT);
#else
    // Fuzzing only (fuzz/CMakeLists.txt): mutated files reach the decoder instead of stopping
    // at their checksums.
    png_set_crc_action(r->png, PNG_CRC_QUIET_USE, PNG_CRC_QUIET_USE);
    png_set_option(r->png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
    // Every ancillary chunk but tRNS is skipped unread (its CRC is still checked).
    png_set_keep_unknown_chunks(r->png, PNG_HANDLE_CHUNK_NEVER, nullptr, -1);
    png_read_info(r->png, r->info);
    png_get_IHDR(r->png, r->info, &r->width, &r->height, &r->bit_depth, &r->color_type,
                 &r->interlace, nullptr, nullptr);
    r->has_trns = png_get_valid(r->png, r->info, PNG_INFO_tRNS) != 0;
    png_colorp palette = nullptr;
    if (png_get_PLTE(r->png, r->info, &palette, &r->num_palette) == 0 || !palette) {
        r->num_palette = 0;
    }
    r->num_palette = std::max(0, std::min(r->num_palette, 256));
    for (int i = 0; i < r->num_palette; i++) r->palette[i] = palette[i];
    png_bytep alpha = nullptr;
    if (r->color_type == PNG_COLOR_TYPE_PALETTE && r->has_trns &&
        png_get_tRNS(r->png, r->info, &alpha, &r->num_alpha, nullptr) != 0 && alpha) {
        r->num_alpha = std::max(0, std::min(r->num_alpha, 256));
        for (int i = 0; i < r->num_alpha; i++) r->alpha[i] = alpha[i];
    } else {
        r->num_alpha = 0;
    }
    return true;
}

bool png_read_setup(PngReader *r) {
    if (setjmp(png_jmpbuf(r->png))) return false;
    if (r->color_type == PNG_COLOR_TYPE_PALETTE) {
        png_set_packing(r->png);  // one index a byte; read_png maps them, checking each
    } else {
        png_set_expand_gray_1_2_4_to_8(r->png);
        if (r->has_trns) png_set_tRNS_to_alpha(r->png);
    }
    png_set_interlace_handling(r->png);
    png_read_update_info(r->png, r->info);
    r->channels = png_get_channels(r->png, r->info);
    r->decoded_bit_depth = png_get_bit_depth(r->png, r->info);
    r->rowbytes = png_get_rowbytes(r->png, r->info);
    return true;
}

bool png_read_pixels(PngReader *r, png_bytepp rows) {
    if (setjmp(png_jmpbuf(r->png))) return false;
    png_read_image(r->png, rows);
    png_read_end(r->png, nullptr);  // the chunks after the pixels, up to IEND, CRCs checked
    return true;
}

struct PngWriter {
    FILE *file = nullptr;
    png_structp png = nullptr;
    png_infop info = nullptr;
    PngMessages messages;
    png_uint_32 width = 0, height = 0;
    int color_type = 0;
};

bool png_write_pixels(PngWriter *w, png_bytepp rows) {
    if (setjmp(png_jmpbuf(w->png))) return false;
    png_set_write_fn(w->png, w->file, png_write_to_file, png_flush_file);
    png_set_user_limits(w->png, kMaxPngSide, kMaxPngSide);
    png_set_IHDR(w->png, w->info, w->width, w->height, 8, w->color_type, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(w->png, w->info);
    png_write_image(w->png, rows);
    png_write_end(w->png, nullptr);
    return true;
}

// Empty if an array of these extents can be stored as a PNG, else why not.
std::string png_shape_problem(const std::vector<int> &e) {
    if (e.size() != 2 && e.size() != 3) {
        return "a PNG holds a 2-D (x, y) or 3-D (x, y, c) array, not rank " +
               std::to_string(e.size()) + " (write .npy)";
    }
    if (e.size() == 3 && (e[2] < 1 || e[2] > 4)) {
        return "a PNG holds 1 to 4 channels, not " + std::to_string(e[2]) + " (write .npy)";
    }
    if (e[0] < 1 || e[1] < 1 || static_cast<uint64_t>(e[0]) > kMaxPngSide ||
        static_cast<uint64_t>(e[1]) > kMaxPngSide) {
        return "a PNG here is 1 to " + std::to_string(kMaxPngSide) + " pixels a side, not " +
               std::to_string(e[0]) + "x" + std::to_string(e[1]);
    }
    return "";
}

std::string npy_shape_problem(const std::vector<int> &e) {
    if (e.empty() || e.size() > static_cast<size_t>(kMaxRank)) {
        return "fuselab's .npy files have 1 to " + std::to_string(kMaxRank) + " dimensions, not " +
               std::to_string(e.size());
    }
    return "";
}

std::vector<int> extents_of(const Buffer<float> &b) {
    std::vector<int> e;
    for (int d = 0; d < b.dimensions(); d++) e.push_back(b.dim(d).extent());
    return e;
}

// Calls f(row, n) for each run of dimension 0, in Halide order (dimension 0 fastest). The
// buffer may have any strides.
template <typename F>
void for_each_row(const Buffer<float> &b, std::vector<float> &scratch, F f) {
    const int rank = b.dimensions();
    uint64_t rows = 1;
    for (int d = 1; d < rank; d++) rows *= static_cast<uint64_t>(b.dim(d).extent());
    const int n = rank > 0 ? b.dim(0).extent() : 1;
    if (n == 0 || rows == 0) return;
    const int64_t stride0 = rank > 0 ? b.dim(0).stride() : 1;
    scratch.resize(static_cast<size_t>(n));
    std::vector<int> pos(static_cast<size_t>(std::max(rank, 1)), 0);
    for (uint64_t r = 0; r < rows; r++) {
        int64_t offset = 0;
        for (int d = 1; d < rank; d++) offset += int64_t(pos[d]) * b.dim(d).stride();
        const float *src = b.data() + offset;
        for (int x = 0; x < n; x++) scratch[x] = src[x * stride0];
        f(scratch.data(), n);
        for (int d = 1; d < rank; d++) {
            if (++pos[d] < b.dim(d).extent()) break;
            pos[d] = 0;
        }
    }
}

}  // namespace

bool format_of(const std::string &path, Format *format) {
    if (ends_with_ci(path, ".npy")) {
        *format = Format::npy;
    } else if (ends_with_ci(path, ".png")) {
        *format = Format::png;
    } else {
        return false;
    }
    return true;
}

void check_input_path(const std::string &path) {
    if (path.empty()) fail_read("''", "empty path");
    struct stat st;
    if (stat(path.c_str(), &st) != 0) fail_read(path, errno_text(errno));
    if (!S_ISREG(st.st_mode)) {
        fail_read(path, std::string("it is ") + kind_of(st.st_mode) + ", not a regular file");
    }
    if (access(path.c_str(), R_OK) != 0) fail_read(path, errno_text(errno));
}

void check_output_shape(const std::vector<int> &extents, const std::string &path) {
    Format format;
    if (!format_of(path, &format)) {
        fail_write(path, "unsupported format '" + extension_of(path) + "' (use .npy or .png)");
    }
    if (format == Format::png) {
        const std::string problem = png_shape_problem(extents);
        if (!problem.empty()) fail_write(path, problem);
    } else {
        const std::string problem = npy_shape_problem(extents);
        if (!problem.empty()) fail_write(path, problem);
    }
}

Buffer<float> allocate_array(const std::vector<int> &extents, const std::string &what) {
    return allocate_floats(extents, what, [](const std::string &why) -> void { throw Error(why); });
}

Buffer<float> read_npy(FILE *f, const std::string &name, std::string *dtype) {
    const auto fail = [&](const std::string &why) { fail_read(name, why); };
    unsigned char pre[12];
    const size_t got = std::fread(pre, 1, 8, f);
    if (std::ferror(f)) fail(errno_text(errno));
    if (got == 0) fail("the file is empty");
    if (got < 6 || std::memcmp(pre, "\x93NUMPY", 6) != 0) {
        fail("not a .npy file: it does not start with \"\\x93NUMPY\"" + looks_like(pre, got));
    }
    if (got < 8) fail("truncated: the file ends inside the .npy preamble");
    const int major = pre[6], minor = pre[7];
    if (major < 1 || major > 3 || minor != 0) {
        fail("unsupported .npy format version " + std::to_string(major) + "." +
             std::to_string(minor) + " (1.0, 2.0 and 3.0 are known)");
    }
    const size_t len_bytes = major == 1 ? 2 : 4;
    if (std::fread(pre + 8, 1, len_bytes, f) != len_bytes) {
        fail("truncated: the file ends inside the .npy header length");
    }
    uint64_t header_len = 0;
    for (size_t k = 0; k < len_bytes; k++) header_len |= uint64_t(pre[8 + k]) << (8 * k);
    if (header_len == 0) fail("the .npy header is empty");
    if (header_len > kMaxNpyHeader) {
        fail("the .npy header claims " + std::to_string(header_len) + " bytes, more than the " +
             std::to_string(kMaxNpyHeader) + " allowed (numpy's own limit)");
    }
    std::string text(header_len, '\0');
    if (std::fread(&text[0], 1, header_len, f) != header_len) {
        fail("truncated: the file ends inside its " + std::to_string(header_len) +
             "-byte .npy header");
    }
    const NpyHeader h = NpyHeaderParser(text, name).parse();

    // float32, or with `dtype` asked for, also float16 and bfloat16 (its bits as '<u2').
    std::string stored = "float32";
    if (dtype && (h.descr == "<f2" || h.descr == "<u2")) {
        stored = h.descr == "<f2" ? "float16" : "bfloat16";
    } else {
        const std::string dtype_problem = check_descr(h.descr);
        if (!dtype_problem.empty()) {
            fail(dtype_problem + (dtype ? ", float16 ('<f2') or bfloat16 (its bits as '<u2')" : ""));
        }
    }
    const uint64_t elem_bytes = stored == "float32" ? 4 : 2;
    if (h.fortran_order) {
        fail(
            "Fortran order (fortran_order: True) is not supported: expected C order (numpy: "
            "np.ascontiguousarray(a))");
    }
    const std::string shape = "shape " + h.shape_text;
    if (h.shape.empty()) {
        fail("a 0-dimensional array (shape ()) is not supported: fuselab's arrays have 1 to " +
             std::to_string(kMaxRank) + " dimensions");
    }
    if (h.shape.size() > static_cast<size_t>(kMaxRank)) {
        fail(shape + " has " + std::to_string(h.shape.size()) +
             " dimensions: fuselab's arrays have 1 to " + std::to_string(kMaxRank));
    }
    unsigned __int128 elements = 1;
    for (int64_t e : h.shape) {
        if (e < 0) fail(shape + ": extent " + std::to_string(e) + " is negative");
        if (e == 0) fail(shape + ": extent 0: empty arrays are not supported");
        if (static_cast<uint64_t>(e) > kMaxElements) {
            fail(shape + ": " +
                 (e == std::numeric_limits<int64_t>::max() ? std::string("an extent beyond 2^63")
                                                           : "extent " + std::to_string(e)) +
                 " is more than " + std::to_string(kMaxElements));
        }
        elements *= static_cast<uint64_t>(e);  // < 2^124: no overflow at rank <= 4
    }
    if (elements > kMaxElements) {
        fail(shape + " has " + u128_text(elements) + " elements, more than " +
             std::to_string(kMaxElements) + " (Halide's limit)");
    }
    const uint64_t bytes = static_cast<uint64_t>(elements) * elem_bytes;
    const std::string over =
        over_byte_limit(static_cast<uint64_t>(elements) * sizeof(float), "an array of " + shape);
    if (!over.empty()) fail(over);
    const uint64_t rest = remaining_bytes(f, name);
    if (rest < bytes) {
        fail("truncated: " + shape + " needs " + bytes_text(bytes) +
             " of " + stored + " data after the header, the file holds " + bytes_text(rest));
    }
    if (rest > bytes) {
        fail(bytes_text(rest - bytes) + " of unexpected data after the array (" + shape +
             " needs " + bytes_text(bytes) + ")");
    }

    // numpy lists the slowest dimension first; Halide lists dimension 0 (the fastest) first.
    std::vector<int> extents;
    for (auto it = h.shape.rbegin(); it != h.shape.rend(); ++it) extents.push_back(int(*it));
    Buffer<float> out = allocate_floats(extents, "an array of " + shape, fail);
    if (std::fread(out.data(), 1, bytes, f) != bytes) {
        fail(std::ferror(f) ? errno_text(errno) : "truncated while reading (did it change?)");
    }
    if (std::fgetc(f) != EOF) fail("the file grew while it was read");
    if (elem_bytes == 2) {  // widened in place, from the end: float i never covers half j > i unread
        const uint16_t *half = reinterpret_cast<const uint16_t *>(out.data());
        float *value = out.data();
        const bool bf16 = stored == "bfloat16";
        for (int64_t i = int64_t(elements) - 1; i >= 0; i--) {
            const uint16_t v = half[i];
            value[i] = bf16 ? bfloat16_to_float(v) : float16_to_float(v);
        }
    }
    if (dtype) *dtype = stored;
    return out;
}

void write_npy(const Buffer<float> &buf, FILE *f, const std::string &name, const std::string &dtype) {
    const char *descr = dtype == "float32" ? "<f4" : dtype == "float16" ? "<f2" : dtype == "bfloat16" ? "<u2" : nullptr;
    if (!descr) fail_write(name, "unknown storage type '" + dtype + "'; known: float32 bfloat16 float16");
    const std::string problem = npy_shape_problem(extents_of(buf));
    if (!problem.empty()) fail_write(name, problem);
    std::string shape = "(";
    for (int d = buf.dimensions() - 1; d >= 0; d--) {
        shape += std::to_string(buf.dim(d).extent());
        if (d > 0) shape += ", ";
    }
    shape += buf.dimensions() == 1 ? ",)" : ")";
    // numpy's layout: the dict, spaces up to a multiple of 64 bytes from the file's start, '\n'.
    std::string header = "{'descr': '" + std::string(descr) + "', 'fortran_order': False, 'shape': " + shape + ", }";
    header.append(64 - (10 + header.size() + 1) % 64, ' ');  // 1 to 64, as numpy pads
    header.push_back('\n');
    const unsigned char pre[10] = {0x93,
                                   'N',
                                   'U',
                                   'M',
                                   'P',
                                   'Y',
                                   1,
                                   0,
                                   static_cast<unsigned char>(header.size() & 0xff),
                                   static_cast<unsigned char>(header.size() >> 8)};
    bool ok = std::fwrite(pre, 1, sizeof(pre), f) == sizeof(pre) &&
              std::fwrite(header.data(), 1, header.size(), f) == header.size();
    std::vector<float> scratch;
    std::vector<uint16_t> narrow;
    if (ok) {
        for_each_row(buf, scratch, [&](const float *row, int n) {
            if (dtype == "float32") {
                ok = ok && std::fwrite(row, sizeof(float), size_t(n), f) == size_t(n);
                return;
            }
            narrow.resize(size_t(n));
            for (int i = 0; i < n; i++)
                narrow[i] = dtype == "float16" ? float_to_float16(row[i]) : float_to_bfloat16(row[i]);
            ok = ok && std::fwrite(narrow.data(), 2, size_t(n), f) == size_t(n);
        });
    }
    if (!ok || std::fflush(f) != 0) fail_write(name, errno_text(errno));
}

Buffer<float> read_png(FILE *f, const std::string &name) {
    const auto fail = [&](const std::string &why) { fail_read(name, why); };
    unsigned char sig[8];
    const size_t got = std::fread(sig, 1, sizeof(sig), f);
    if (std::ferror(f)) fail(errno_text(errno));
    if (got == 0) fail("the file is empty");
    if (got < sizeof(sig) || png_sig_cmp(sig, 0, sizeof(sig)) != 0) {
        fail("not a PNG file: it does not start with the PNG signature" + looks_like(sig, got));
    }

    PngReader r;
    r.file = f;
    struct Destroy {
        PngReader &r;
        ~Destroy() { png_destroy_read_struct(&r.png, r.info ? &r.info : nullptr, nullptr); }
    } destroy{r};
    r.png =
        png_create_read_struct(PNG_LIBPNG_VER_STRING, &r.messages, png_on_error, png_on_warning);
    if (r.png) r.info = png_create_info_struct(r.png);
    if (!r.png || !r.info) fail("libpng could not start (out of memory)");
    if (!png_read_header(&r)) fail(png_failure(r.messages));

    // What the image will be, checked before libpng allocates a row: gray of 1, 2 or 4 bits
    // becomes 8 bits, a palette RGB (RGBA with tRNS), a tRNS colour an alpha channel.
    const bool palette = r.color_type == PNG_COLOR_TYPE_PALETTE;
    int file_channels = 1;
    switch (r.color_type) {
        case PNG_COLOR_TYPE_GRAY_ALPHA:
            file_channels = 2;
            break;
        case PNG_COLOR_TYPE_RGB:
            file_channels = 3;
            break;
        case PNG_COLOR_TYPE_RGB_ALPHA:
            file_channels = 4;
            break;
        default:
            file_channels = 1;
            break;  // gray, palette
    }
    int channels = palette ? 3 : file_channels;
    if (r.has_trns && (channels == 1 || channels == 3)) channels++;
    const int decoded_channels = palette ? 1 : channels;  // palette rows hold indexes
    const int sample_bytes = r.bit_depth == 16 ? 2 : 1;
    const uint64_t w = r.width, h = r.height;
    const std::string image = std::to_string(w) + "x" + std::to_string(h) + " image";
    const uint64_t elements = w * h * uint64_t(channels);  // < 2^50
    if (elements > kMaxElements) {
        fail("a " + image + " (" + std::to_string(channels) +
             (channels == 1 ? " channel" : " channels") + ") has " + std::to_string(elements) +
             " values, more than " + std::to_string(kMaxElements) + " (Halide's limit)");
    }
    const uint64_t row_bytes = w * uint64_t(decoded_channels * sample_bytes);
    const std::string over = over_byte_limit(
        h * row_bytes + h * sizeof(png_bytep) + elements * sizeof(float), "decoding a " + image);
    if (!over.empty()) fail(over);
    const uint64_t packed = h * ((w * uint64_t(file_channels * r.bit_depth) + 7) / 8 + 1);
    const uint64_t rest = remaining_bytes(f, name);
    if (packed > kMaxInflateRatio * rest + 1024) {
        fail("truncated or corrupt: a " + image + " needs " + bytes_text(packed) +
             " of pixel rows, which the " + bytes_text(rest) +
             " left in the file cannot hold compressed");
    }

    if (!png_read_setup(&r)) fail(png_failure(r.messages));
    if (r.channels != decoded_channels || r.decoded_bit_depth != 8 * sample_bytes ||
        r.rowbytes != row_bytes) {
        fail("libpng decodes it as " + std::to_string(r.channels) + " channels of " +
             std::to_string(r.decoded_bit_depth) + " bits, not the expected " +
             std::to_string(decoded_channels) + " of " + std::to_string(8 * sample_bytes));
    }
    if (palette && r.num_palette == 0) fail("invalid PNG: a palette image without a palette");
    std::vector<png_byte> pixels;
    std::vector<png_bytep> rows;
    try {
        pixels.resize(h * row_bytes);
        rows.resize(h);
    } catch (const std::bad_alloc &) {
        fail("out of memory decoding a " + image);
    }
    for (uint64_t y = 0; y < h; y++) rows[y] = pixels.data() + y * row_bytes;
    if (!png_read_pixels(&r, rows.data())) fail(png_failure(r.messages));

    std::vector<int> extents = {int(w), int(h)};
    if (channels > 1) extents.push_back(channels);
    Buffer<float> img = allocate_floats(extents, "a " + image, fail);
    float *dst = img.data();
    const uint64_t plane = w * h;
    const float scale = sample_bytes == 2 ? 65535.0f : 255.0f;
    if (palette) {
        for (uint64_t y = 0; y < h; y++) {
            for (uint64_t x = 0; x < w; x++) {
                const int i = rows[y][x];
                if (i >= r.num_palette) {
                    fail("invalid PNG: pixel (" + std::to_string(x) + ", " + std::to_string(y) +
                         ") has palette index " + std::to_string(i) + ", past the " +
                         std::to_string(r.num_palette) + "-entry palette");
                }
                const png_color &c = r.palette[i];
                const png_byte v[4] = {c.red, c.green, c.blue,
                                       png_byte(i < r.num_alpha ? r.alpha[i] : 255)};
                for (int k = 0; k < channels; k++) dst[k * plane + y * w + x] = float(v[k]) / scale;
            }
        }
        return img;
    }
    for (uint64_t y = 0; y < h; y++) {
        const png_byte *src = rows[y];
        for (uint64_t x = 0; x < w; x++) {
            for (int c = 0; c < channels; c++) {
                const png_byte *s = src + (x * channels + c) * sample_bytes;
                const unsigned v = sample_bytes == 2 ? (unsigned(s[0]) << 8 | s[1]) : s[0];
                dst[c * plane + y * w + x] = float(v) / scale;
            }
        }
    }
    return img;
}

void write_png(const Buffer<float> &buf, FILE *f, const std::string &name) {
    const std::vector<int> extents = extents_of(buf);
    const std::string problem = png_shape_problem(extents);
    if (!problem.empty()) fail_write(name, problem);
    const int w = extents[0], h = extents[1], channels = extents.size() == 3 ? extents[2] : 1;
    std::vector<png_byte> pixels;
    std::vector<png_bytep> rows;
    try {
        pixels.resize(size_t(w) * size_t(h) * size_t(channels));
        rows.resize(size_t(h));
    } catch (const std::bad_alloc &) {
        fail_write(name, "out of memory");
    }
    const int64_t sx = buf.dim(0).stride(), sy = buf.dim(1).stride();
    const int64_t sc = channels > 1 ? buf.dim(2).stride() : 0;
    for (int c = 0; c < channels; c++) {
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                const float v = buf.data()[x * sx + y * sy + c * sc];
                if (std::isnan(v)) {
                    fail_write(name, "NaN at (" + std::to_string(x) + ", " + std::to_string(y) +
                                         (channels > 1 ? ", " + std::to_string(c) : "") +
                                         "): a PNG cannot hold it (write .npy)");
                }
                pixels[(size_t(y) * w + x) * channels + c] =
                    static_cast<png_byte>(std::min(1.0f, std::max(0.0f, v)) * 255.0f + 0.5f);
            }
        }
    }
    for (int y = 0; y < h; y++) rows[y] = pixels.data() + size_t(y) * w * channels;

    static const int color_types[] = {PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA,
                                      PNG_COLOR_TYPE_RGB, PNG_COLOR_TYPE_RGB_ALPHA};
    PngWriter wr;
    wr.file = f;
    wr.width = png_uint_32(w);
    wr.height = png_uint_32(h);
    wr.color_type = color_types[channels - 1];
    struct Destroy {
        PngWriter &w;
        ~Destroy() { png_destroy_write_struct(&w.png, w.info ? &w.info : nullptr); }
    } destroy{wr};
    wr.png =
        png_create_write_struct(PNG_LIBPNG_VER_STRING, &wr.messages, png_on_error, png_on_warning);
    if (wr.png) wr.info = png_create_info_struct(wr.png);
    if (!wr.png || !wr.info) fail_write(name, "libpng could not start (out of memory)");
    if (!png_write_pixels(&wr, rows.data())) {
        fail_write(name, std::string("libpng: ") + wr.messages.error);
    }
    if (std::fflush(f) != 0 || std::ferror(f)) fail_write(name, errno_text(errno));
}

Buffer<float> read_array(const std::string &path, std::string *dtype) {
    Format format;
    if (!format_of(path, &format)) {
        check_input_path(path);
        fail_read(path, "unsupported format '" + extension_of(path) + "' (use .npy or .png)");
    }
    File f = open_input(path);
    if (format == Format::npy) return read_npy(f.get(), path, dtype);
    if (dtype) *dtype = "float32";
    return read_png(f.get(), path);
}

void write_array(const Buffer<float> &buf, const std::string &path, const std::string &dtype) {
    OutputFile out(path);
    out.write(buf, dtype);
    out.commit();
}

OutputFile::OutputFile(const std::string &path) : path_(path), format_(Format::npy) {
    if (path.empty()) fail_write("''", "empty path");
    if (!format_of(path, &format_)) {
        fail_write(path, "unsupported format '" + extension_of(path) + "' (use .npy or .png)");
    }
    struct stat st;
    if (stat(path.c_str(), &st) == 0) {
        if (!S_ISREG(st.st_mode)) {
            fail_write(path, std::string("it is ") + kind_of(st.st_mode) +
                                 ", not a regular file (fuselab replaces output files)");
        }
    } else if (errno != ENOENT && errno != ENOTDIR) {  // ENOTDIR: said below, more clearly
        fail_write(path, errno_text(errno));
    }
    const std::string dir = directory_of(path);
    if (stat(dir.c_str(), &st) != 0) {
        const int err = errno;
        fail_write(path, err == ENOENT ? "directory " + dir + " does not exist"
                                       : "directory " + dir + ": " + errno_text(err));
    }
    if (!S_ISDIR(st.st_mode)) fail_write(path, dir + " is not a directory");
    if (access(dir.c_str(), W_OK | X_OK) != 0) {
        const int err = errno;
        fail_write(path, "directory " + dir + " is not writable (" + errno_text(err) + ")");
    }
    // Where permission bits do not tell (root, read-only file systems), creating a file does.
    for (int attempt = 0;; attempt++) {
        tmp_ = path + ".partial-" + std::to_string(getpid()) + "-" + std::to_string(attempt);
        const int fd = open(tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            close(fd);
            unlink(tmp_.c_str());
            tmp_.clear();
            break;
        }
        const int err = errno;
        if (err != EEXIST || attempt >= 100) {
            tmp_.clear();
            fail_write(path,
                       "cannot create a file in directory " + dir + " (" + errno_text(err) + ")");
        }
    }
}

OutputFile::~OutputFile() {
    if (!committed_ && !tmp_.empty()) unlink(tmp_.c_str());
}

void OutputFile::write(const Buffer<float> &buf, const std::string &dtype) {
    if (format_ == Format::png && dtype != "float32")
        fail_write(path_, "a PNG holds 8-bit values, not " + dtype + ": write a .npy");
    if (committed_) fail_write(path_, "already written");
    // A fresh name each time (O_EXCL): never a file that appeared since the constructor ran.
    int fd = -1;
    for (int attempt = 0; fd < 0; attempt++) {
        tmp_ = path_ + ".partial-" + std::to_string(getpid()) + "-" + std::to_string(attempt);
        fd = open(tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && (errno != EEXIST || attempt >= 100)) {
            const int err = errno;
            tmp_.clear();
            fail_write(path_, errno_text(err));
        }
    }
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        const int err = errno;
        close(fd);
        fail_write(path_, errno_text(err));
    }
    File file(f);
    if (format_ == Format::npy) {
        write_npy(buf, f, path_, dtype);
    } else {
        write_png(buf, f, path_);
    }
    if (fsync(fileno(f)) != 0 && errno != EINVAL) fail_write(path_, errno_text(errno));
    if (std::fclose(file.release()) != 0) fail_write(path_, errno_text(errno));
}

void OutputFile::commit() {
    if (committed_) return;
    if (tmp_.empty()) fail_write(path_, "nothing was written");
    if (std::rename(tmp_.c_str(), path_.c_str()) != 0) fail_write(path_, errno_text(errno));
    committed_ = true;
}

}  // namespace fuselab
