#include "support/RandomTrainingProgram.h"

#include "support/SplitMixRng.h"

#include <algorithm>
#include <sstream>
#include <vector>

namespace tempo::testing {

namespace {

/// The program's dimensions and the data domain of its per-point values.
struct Dims {
  std::vector<std::string> order;  ///< declared after i: some of "t", "b"
  bool dataOverI = false;          ///< per-point inputs vary with the iteration too
  bool has(const std::string& d) const { return std::find(order.begin(), order.end(), d) != order.end(); }
  /// The per-point domain, in declaration order.
  std::vector<std::string> data() const {
    std::vector<std::string> out;
    if (dataOverI) out.push_back("i");
    out.insert(out.end(), order.begin(), order.end());
    return out;
  }
  /// `(i, t, b)` of the data domain.
  std::string over() const {
    std::string s;
    for (const std::string& d : data()) s += (s.empty() ? "" : ", ") + d;
    return "(" + s + ")";
  }
  /// A left side or read with each data dimension at itself, except `t` at `tIndex`.
  std::string at(const std::string& tIndex) const {
    std::string s;
    for (const std::string& d : data()) s += (s.empty() ? "" : ", ") + (d == "t" ? tIndex : d);
    return "[" + s + "]";
  }
  /// Whole windows of t and b, i at itself.
  std::string windows() const {
    std::string s;
    for (const std::string& d : data()) s += (s.empty() ? "" : ", ") + (d == "i" ? std::string("i") : "0:" + bound(d));
    return "[" + s + "]";
  }
  static std::string bound(const std::string& d) { return d == "t" ? "T" : "B"; }
};

class TrainingWriter {
public:
  explicit TrainingWriter(uint64_t seed) : rng_(seed) {}

  std::string write() {
    chooseDims();
    header();
    model();
    scoreAndWeight();
    lossAndOptimiser();
    return out_.str();
  }

private:
  void chooseDims() {
    std::vector<std::string> dims;
    if (rng_.chance(0.8)) dims.push_back("t");
    if (dims.empty() || rng_.chance(0.7)) dims.push_back("b");
    if (dims.size() == 2 && rng_.chance(0.5)) std::swap(dims[0], dims[1]);
    dims_.order = dims;
    dims_.dataOverI = rng_.chance(0.5);
    recurrent_ = dims_.has("t") && rng_.chance(0.5);
  }

  void header() {
    out_ << "dim i < I\n";
    for (const std::string& d : dims_.order) out_ << "dim " << d << " < " << Dims::bound(d) << "\n";
    out_ << "set I = " << rng_.range(2, 3);
    if (dims_.has("t")) out_ << ", T = " << rng_.range(2, 4);
    if (dims_.has("b")) out_ << ", B = " << rng_.range(2, 3);
    k_ = rng_.range(2, 3);
    h_ = rng_.range(2, 4);
    out_ << "\n";
    out_ << "input s : f32[" << k_ << "] over " << dims_.over() << " = normal(seed=" << rng_.range(1, 99) << ")\n";
    out_ << "param W : f32[" << k_ << ", " << h_ << "] = normal(seed=" << rng_.range(1, 99) << ", std=0.5)\n";
    if (rng_.chance(0.5)) {
      out_ << "param c : f32[" << h_ << "] = zeros()\n";
      bias_ = " + c";
    }
  }

  void model() {
    if (!recurrent_) {
      out_ << "h = tanh(s @ W" << bias_ << ")\n";
    } else {
      out_ << "param U : f32[" << h_ << ", " << h_ << "] = normal(seed=" << rng_.range(1, 99) << ", std=0.3)\n";
      out_ << "h : f32[" << h_ << "] over " << dims_.over() << "\n";
      out_ << "h" << dims_.at("0") << " = tanh(s @ W" << bias_ << ")\n";
      out_ << "h" << dims_.at("t") << " = tanh(s @ W + h[t=t-1] @ U" << bias_ << ")\n";
    }
    if (rng_.chance(0.4)) {
      out_ << "param W2 : f32[" << h_ << ", " << h_ << "] = normal(seed=" << rng_.range(1, 99) << ", std=0.5)\n";
      out_ << "h2 = tanh(h @ W2)\n";
      top_ = "h2";
    }
  }

  void scoreAndWeight() {
    if (rng_.chance(0.5)) {
      out_ << "param v : f32[" << h_ << "] = normal(seed=" << rng_.range(1, 99) << ", std=0.5)\n";
      out_ << "score = sum(" << top_ << " * v)\n";
    } else {
      out_ << "param V : f32[" << h_ << ", 2] = normal(seed=" << rng_.range(1, 99) << ", std=0.5)\n";
      out_ << "input q : f32[2] over " << dims_.over() << " = uniform(seed=" << rng_.range(1, 99)
           << ", low=0.0, high=1.0)\n";
      out_ << "score = sum(log_softmax(" << top_ << " @ V) * q)\n";
    }
    out_ << "input r : f32[] over " << dims_.over() << " = uniform(seed=" << rng_.range(1, 99)
         << ", low=0.0, high=1.0)\n";
    if (dims_.has("t") && rng_.chance(0.5)) {  // a discounted return, from the end of the episode
      out_ << "g : f32[] over " << dims_.over() << "\n";
      out_ << "g" << dims_.at("T-1") << " = r\n";
      out_ << "g" << dims_.at("t") << " = r + 0.9 * g[t=t+1]\n";
      weight_ = "g";
    }
  }

  void lossAndOptimiser() {
    const std::string w = dims_.windows();
    const std::string count = dims_.has("b") ? "B" : "T";
    switch (rng_.range(0, 2)) {
      case 0: out_ << "loss = -sum(score" << w << " * " << weight_ << w << ") / " << count << "\n"; break;
      case 1:  // one mean per windowed dimension (mean() takes one symbolic size at a time)
        out_ << "loss = " << (dims_.order.size() == 2 ? "mean(mean(" : "mean(") << "score" << w << " * " << weight_
             << w << (dims_.order.size() == 2 ? ", dim=1), dim=0)\n" : ")\n");
        break;
      default: out_ << "loss = sum((score" << w << " - " << weight_ << w << ") * (score" << w << " - " << weight_ << w
                    << ")) / " << count << "\n";
    }
    switch (rng_.range(0, 2)) {
      case 0: out_ << "optimize loss over i with sgd(lr=0.1)\n"; break;
      case 1: out_ << "optimize loss over i with sgd(lr=0.05, momentum=0.9)\n"; break;
      default: out_ << "optimize loss over i with adam(lr=0.05)\n";
    }
    out_ << "out loss\nout W\n";
  }

  Rng rng_;
  Dims dims_;
  bool recurrent_ = false;
  int k_ = 2, h_ = 2;
  std::string bias_, top_ = "h", weight_ = "r";
  std::ostringstream out_;
};

}  // namespace

std::string generateRandomTrainingProgram(uint64_t seed) { return TrainingWriter(seed).write(); }

}  // namespace tempo::testing
