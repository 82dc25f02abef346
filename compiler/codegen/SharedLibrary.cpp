// Linking with lld and loading with dlopen; see SharedLibrary.h.
#include "codegen/SharedLibrary.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <system_error>
#include <vector>

extern char** environ;

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
  // ld.lld reads its input from a file: the object goes next to the output for the link's
  // duration, and the linker's messages to a file beside it.
  std::filesystem::path input = output, log = output;
  input += ".o";
  log += ".log";
  {
    std::ofstream out(input, std::ios::binary | std::ios::trunc);
    out.write(object.data(), static_cast<std::streamsize>(object.size()));
    if (!out.flush()) throw std::runtime_error("cannot write " + input.string());
  }
  const std::string in = input.string(), to = output.string();
  std::vector<std::string> args = {TEMPO_LLD_EXECUTABLE, "-shared", "--threads=1", "--build-id=none", "-z", "noexecstack",
                                   "-o", to, in};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&files, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = 0;
  const int spawned = ::posix_spawn(&pid, argv[0], &files, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&files);
  int status = 0;
  if (spawned == 0)
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  const bool linked = spawned == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  std::string messages;
  if (!linked) {
    std::ifstream text(log);
    messages.assign(std::istreambuf_iterator<char>(text), std::istreambuf_iterator<char>());
    if (spawned != 0) messages = std::string("cannot start ") + TEMPO_LLD_EXECUTABLE + ": " + std::strerror(spawned);
  }
  std::error_code ec;
  std::filesystem::remove(input, ec);
  std::filesystem::remove(log, ec);
  if (!linked) {
    std::filesystem::remove(output, ec);
    throw std::runtime_error("lld cannot link the kernels into " + to + ": " + messages);
  }
}

}  // namespace tempo
