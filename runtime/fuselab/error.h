// The one error type of fuselab: every failure reaches the caller as an Error whose message
// names the variant and the problem. Nothing aborts.
#pragma once

#include <stdexcept>
#include <string>

namespace fuselab {

class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A documented limit of a variant, refused in words before anything is written: an autoscheduled
// variant at a size its tiles do not fit, or one that takes a buffer as kernel parameters at
// another shape. The bench reports it as REFUSED, not as an error (registry.h: Variant::limit).
class Refusal : public Error {
public:
    using Error::Error;
};

}  // namespace fuselab
