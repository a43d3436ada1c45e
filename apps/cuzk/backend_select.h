// `--backend cuda|cpu|auto` and `--vram-limit SIZE` for the commands that
// prove in this process (prove with key files, bench prove).
#pragma once

#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "cuzk/base/status.h"
#include "cuzk/base/thread_pool.h"
#include "cuzk/groth16/backend.h"

namespace cuzk::app {

struct BackendChoice {
  std::string name = "auto";    // auto: CUDA when a device is present, else the CPU
  std::string vram_limit;       // "" or a size (base/byte_size.h): 16GiB, 16G, 512MiB, 4096
  std::string placement = "auto";  // auto, resident or streamed (CUDA keys)
};

void add_backend_options(CLI::App* cmd, BackendChoice* choice);

// The backend asked for. *said is one line for the user: "proving on
// cuda:0 NVIDIA ...", or with auto and no usable device "no GPU found,
// proving on the cpu (N threads)". *why_not_gpu (when given) receives, for
// auto on the CPU, why no device could be used ("cudaErrorNoDevice: ...",
// never a source location), for --verbose. Errors: INVALID_ARGUMENT for an
// unknown name or size, UNAVAILABLE for --backend cuda without a usable
// device or in a build without CUDA.
StatusOr<std::unique_ptr<groth16::Backend>> make_backend(const BackendChoice& choice, ThreadPool* pool,
                                                         std::string* said, std::string* why_not_gpu = nullptr);

}  // namespace cuzk::app
