# CMake toolchain file for Debian's aarch64-linux-gnu GCC cross toolchain
# (apt: gcc-aarch64-linux-gnu g++-aarch64-linux-gnu, qemu-user), the
# counterpart of aarch64-linux-gnu.txt for the CMake front end
# (docs/cmake.md): tests and cpudispatch-run run through qemu-user.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_AR aarch64-linux-gnu-ar CACHE FILEPATH "")
set(CMAKE_OBJCOPY aarch64-linux-gnu-objcopy CACHE FILEPATH "")
set(CMAKE_OBJDUMP aarch64-linux-gnu-objdump CACHE FILEPATH "")
# -E LD_LIBRARY_PATH: the sysroot's C library with its loader (aarch64-linux-gnu.txt says why).
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /usr/aarch64-linux-gnu -E LD_LIBRARY_PATH=/usr/aarch64-linux-gnu/lib)
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
