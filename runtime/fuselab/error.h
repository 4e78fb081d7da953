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

}  // namespace fuselab
