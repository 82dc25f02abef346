// IslError: the exception every scheduling failure that comes from isl becomes.
//
// The isl context continues on error (it returns null instead of aborting);
// the scheduler checks each result and throws an IslError naming the step
// and carrying isl's own message, so callers (the CLI, the studio) can show
// it as a diagnostic without including any isl header.
#pragma once

#include <stdexcept>

namespace tempo {

/// An isl operation failed, or no valid schedule exists; the message says which step and why.
class IslError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

}  // namespace tempo
