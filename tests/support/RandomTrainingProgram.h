// RandomTrainingProgram: random `.tpo` programs that train params with `optimize`.
//
// The general generator (RandomProgram.h) writes forward programs; this one
// writes the shape of a training loop as a user would: an iteration dimension
// `i` and, in a random order, a time dimension `t` and a batch dimension `b`
// (at least one of them); per-point data over those dimensions (with or
// without i); a model of one or two layers, feed-forward or recurrent along t;
// a per-point score (a dot product or a log-softmax picked by a weight
// vector) and a per-point weight (an input, or a discounted future return
// computed by a recurrence towards t = T-1); a loss that reduces score and
// weight over whole windows of t and b (policy gradient, weighted mean or
// squared error); and sgd, sgd with momentum or adam. Every seed yields a
// well-formed program whose values stay bounded (tanh layers, small
// learning rates), so the differential harness can compare the compiled
// engine with the reference interpreter on it at several bounds.
#pragma once

#include <cstdint>
#include <string>

namespace tempo::testing {

/// The `.tpo` text of the training program for `seed` (deterministic).
std::string generateRandomTrainingProgram(uint64_t seed);

}  // namespace tempo::testing
