// Linking with lld and loading with dlopen; see SharedLibrary.h.
#include "codegen/SharedLibrary.h"

#include <lld/Common/CommonLinkerContext.h>
#include <lld/Common/Driver.h>
#include <llvm/Support/raw_ostream.h>

#include <dlfcn.h>

#include <fstream>
#include <mutex>
#include <stdexcept>
#include <system_error>
#include <vector>

namespace tempo {

std::shared_ptr<const SharedLibrary> SharedLibrary::open(const std::filesystem::path& path, std::string* error) {
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    if (error) *error = ::dlerror();
    return nullptr;
  }
  return std::shared_ptr<const SharedLibrary>(new SharedLibrary(handle));
}

SharedLibrary::~SharedLibrary() { ::dlclose(handle_); }

void* SharedLibrary::symbol(const std::string& name) const { return ::dlsym(handle_, name.c_str()); }

void linkSharedLibrary(const std::string& object, const std::filesystem::path& output) {
  // lld reads its inputs from files: the object goes next to the output for the link's duration.
  std::filesystem::path input = output;
  input += ".o";
  {
    std::ofstream out(input, std::ios::binary | std::ios::trunc);
    out.write(object.data(), static_cast<std::streamsize>(object.size()));
    if (!out.flush()) throw std::runtime_error("cannot write " + input.string());
  }
  const std::string in = input.string(), to = output.string();
  const std::vector<const char*> args = {"ld.lld", "-shared", "--threads=1", "--build-id=none", "-z", "noexecstack",
                                         "-o", to.c_str(), in.c_str()};
  std::string messages;
  bool linked = false;
  {
    static std::mutex lldIsNotReentrant;
    std::lock_guard<std::mutex> lock(lldIsNotReentrant);
    llvm::raw_string_ostream log(messages);
    linked = lld::elf::link(args, log, log, /*exitEarly=*/false, /*disableOutput=*/false);
    lld::CommonLinkerContext::destroy();  // lld's state back to pristine for the next link
  }
  std::error_code ec;
  std::filesystem::remove(input, ec);
  if (!linked) {
    std::filesystem::remove(output, ec);
    throw std::runtime_error("lld cannot link the kernels into " + to + ": " + messages);
  }
}

}  // namespace tempo
