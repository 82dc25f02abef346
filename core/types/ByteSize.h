// ByteSize: a byte count as people write it (`4096`, `64k`, `1.5M`, `2G`).
//
// Read by every place that takes a memory size from a person: the CLI's
// `--memory-budget`, the studio's run panel and the lessons' `budget` action.
// k, M, G are 1024, 1024^2, 1024^3 (either case), with an optional trailing B.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace tempo {

/// `4096`, `64k`, `1.5M`, `2G`, with an optional trailing `B` -> bytes; nullopt when malformed or negative.
std::optional<int64_t> parseByteSize(const std::string& text);

}  // namespace tempo
