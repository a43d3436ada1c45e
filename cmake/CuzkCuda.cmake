# CUZK_CUDA: AUTO builds the CUDA backend when nvcc is found, ON requires it,
# OFF never builds it. Sets CUZK_HAVE_CUDA.
#
# The GPUs a build runs on: CMAKE_CUDA_ARCHITECTURES. Unless a preset or the
# command line names them, a build carries machine code for every GPU
# generation CUDA 13 supports that Filecoin operators prove on — Turing
# (sm_75: T4, RTX 20xx), Ampere (sm_80: A100; sm_86: RTX 30xx, A40), Ada
# (sm_89: RTX 40xx, L40), Hopper (sm_90: H100, H200), Blackwell (sm_100:
# B200; sm_120: RTX 50xx) — and PTX of the newest, which the driver compiles
# for GPUs that come later (CUZK_CUDA_RELEASE_ARCHITECTURES). Development and
# CI presets build sm_90 only, which compiles about seven times faster.
# scripts/check-gpu-archs.sh builds the release list and lists what the
# binary carries.
set(CUZK_CUDA_RELEASE_ARCHITECTURES "75-real;80-real;86-real;89-real;90-real;100-real;120")
set(CUZK_HAVE_CUDA OFF)
if(NOT CUZK_CUDA STREQUAL "OFF")
  if(NOT CMAKE_CUDA_COMPILER)
    find_program(_cuzk_nvcc nvcc PATHS /usr/local/cuda/bin ENV CUDA_PATH PATH_SUFFIXES bin)
    if(_cuzk_nvcc)
      set(CMAKE_CUDA_COMPILER ${_cuzk_nvcc})
    endif()
  endif()
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES OR CMAKE_CUDA_ARCHITECTURES STREQUAL "release")
      set(CMAKE_CUDA_ARCHITECTURES ${CUZK_CUDA_RELEASE_ARCHITECTURES})
    endif()
    enable_language(CUDA)
    # CMake < 3.26 does not know nvcc's C++20 flag; supply it.
    if(NOT DEFINED CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
      set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
      set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
    endif()
    set(CMAKE_CUDA_STANDARD 20)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    find_package(CUDAToolkit REQUIRED)
    set(CUZK_HAVE_CUDA ON)
    message(STATUS "cuzk: CUDA backend ON (nvcc ${CMAKE_CUDA_COMPILER_VERSION}, architectures ${CMAKE_CUDA_ARCHITECTURES})")
  elseif(CUZK_CUDA STREQUAL "ON")
    message(FATAL_ERROR "cuzk: CUZK_CUDA=ON but no CUDA compiler (nvcc) was found")
  else()
    message(STATUS "cuzk: CUDA backend OFF (nvcc not found; CPU backend only)")
  endif()
else()
  message(STATUS "cuzk: CUDA backend OFF (CUZK_CUDA=OFF)")
endif()
