# Every dependency is a Debian package; nothing is downloaded or vendored.
find_package(PkgConfig REQUIRED)
pkg_check_modules(LIBGIT2 REQUIRED IMPORTED_TARGET libgit2)
find_package(CURL REQUIRED)
find_package(nlohmann_json REQUIRED)
find_package(fmt REQUIRED)
find_package(CLI11 REQUIRED)
find_package(yaml-cpp REQUIRED)
# yaml-cpp 0.7 (Debian 12, Ubuntu 22.04) exports the target `yaml-cpp`; 0.8 (Ubuntu 24.04 and
# later) exports only `yaml-cpp::yaml-cpp`, where a plain `yaml-cpp` silently becomes
# -lyaml-cpp without the package's include directories and definitions.
if(TARGET yaml-cpp::yaml-cpp)
  set(BENCHPR_YAML_CPP yaml-cpp::yaml-cpp)
else()
  set(BENCHPR_YAML_CPP yaml-cpp)
endif()
find_package(Boost REQUIRED)  # header-only Boost.Math distributions
find_package(Threads REQUIRED)
find_path(MUSTACHE_INCLUDE_DIR kainjow/mustache.hpp REQUIRED)
add_library(benchpr_mustache INTERFACE)
target_include_directories(benchpr_mustache SYSTEM INTERFACE ${MUSTACHE_INCLUDE_DIR})
if(BENCHPR_BUILD_TESTS)
  find_package(GTest REQUIRED)
  pkg_check_modules(HTTPLIB REQUIRED IMPORTED_TARGET cpp-httplib)
endif()
if(BENCHPR_BUILD_TESTS OR BENCHPR_BUILD_BENCH)
  find_package(benchmark REQUIRED)
endif()
