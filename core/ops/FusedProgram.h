// FusedProgram: the printable expression program of a fused node.
//
// The fusion pass replaces a chain of elementwise ops over one domain by a
// single `fused` node whose attrs.program lists the steps in order (an op and
// its operands: the fused node's inputs in0, in1, ..., earlier steps, or
// literals folded in from scalar constants; the last step is the result).
// This file turns that program into the one-line infix expression the SDG
// text form, DOT labels and the pass stepper show, e.g.
// `(in0 - in1) / sqrt(in2 + 1e-05) * in3`: + - * / and comparisons are infix
// with the usual precedence, every other op is a call (`maximum(in0, 0)`,
// `where(in0, in1, in2)`, `cast(in0, f32)`), and a step used twice is
// written out at each use.
#pragma once

#include "ops/Op.h"

#include <string>
#include <vector>

namespace tempo {

std::string fusedExpression(const std::vector<FusedStep>& program);
/// Step `step` alone, earlier steps named `s0`, `s1`, ... (`sqrt(s1)`, `in0 - in1`,
/// `s2 + 1e-05`): how a drawing of the program labels each step.
std::string fusedStepExpression(const std::vector<FusedStep>& program, size_t step);

}  // namespace tempo
