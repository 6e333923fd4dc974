# gRPC contract cuzk.v1.ProvingEngine (proto/cuzk/v1/proving.proto) -> static library cuzk_proto.
#
# Needs protobuf (protoc + libprotobuf) and gRPC C++ (grpc++ + grpc_cpp_plugin); on Debian 12:
# libprotobuf-dev protobuf-compiler libgrpc++-dev protobuf-compiler-grpc (scripts/setup installs them).
# gRPC comes from its CMake package when there is one, else from pkg-config (grpc++). When something is
# missing this says what and skips: CUZK_HAVE_GRPC is OFF, there is no cuzk_proto target, and every other
# part of the build goes on as before.
#
# Consumers: target_link_libraries(x PRIVATE cuzk_proto), then
#   #include "cuzk/v1/proving.pb.h" / "cuzk/v1/proving.grpc.pb.h".

set(CUZK_HAVE_GRPC OFF)
set(_cuzk_grpc_missing "")

find_package(Protobuf QUIET)
if(NOT Protobuf_FOUND OR NOT Protobuf_PROTOC_EXECUTABLE)
  list(APPEND _cuzk_grpc_missing "protobuf (libprotobuf-dev, protobuf-compiler)")
endif()

set(_cuzk_grpcpp "")
set(_cuzk_grpc_plugin "")
if(Protobuf_FOUND)
  find_package(gRPC CONFIG QUIET)
  if(TARGET gRPC::grpc++ AND TARGET gRPC::grpc_cpp_plugin)
    set(_cuzk_grpcpp gRPC::grpc++)
    set(_cuzk_grpc_plugin $<TARGET_FILE:gRPC::grpc_cpp_plugin>)
  else()
    find_package(PkgConfig QUIET)
    if(PkgConfig_FOUND)
      pkg_check_modules(CUZK_GRPCPP QUIET IMPORTED_TARGET grpc++)
    endif()
    find_program(CUZK_GRPC_CPP_PLUGIN grpc_cpp_plugin)
    if(CUZK_GRPCPP_FOUND AND CUZK_GRPC_CPP_PLUGIN)
      set(_cuzk_grpcpp PkgConfig::CUZK_GRPCPP)
      set(_cuzk_grpc_plugin ${CUZK_GRPC_CPP_PLUGIN})
    endif()
  endif()
  if(NOT _cuzk_grpcpp)
    list(APPEND _cuzk_grpc_missing "gRPC C++ (libgrpc++-dev, protobuf-compiler-grpc)")
  endif()
endif()

if(_cuzk_grpc_missing)
  list(JOIN _cuzk_grpc_missing ", " _cuzk_grpc_missing)
  message(STATUS "cuzk: gRPC OFF: not found: ${_cuzk_grpc_missing}; cuzk_proto and the gRPC frontend are "
                 "skipped (bash scripts/setup installs them)")
else()
  set(_cuzk_proto_root ${PROJECT_SOURCE_DIR}/proto)
  set(_cuzk_proto_out ${PROJECT_BINARY_DIR}/proto)
  set(_cuzk_proto_file cuzk/v1/proving.proto)
  set(_cuzk_proto_gen ${_cuzk_proto_out}/cuzk/v1/proving.pb.cc ${_cuzk_proto_out}/cuzk/v1/proving.pb.h
                      ${_cuzk_proto_out}/cuzk/v1/proving.grpc.pb.cc ${_cuzk_proto_out}/cuzk/v1/proving.grpc.pb.h)
  file(MAKE_DIRECTORY ${_cuzk_proto_out})
  # -I proto: the file is compiled as "cuzk/v1/proving.proto", the name the original daemon's descriptor has.
  add_custom_command(
    OUTPUT ${_cuzk_proto_gen}
    COMMAND ${Protobuf_PROTOC_EXECUTABLE} -I ${_cuzk_proto_root} --cpp_out=${_cuzk_proto_out}
            --grpc_out=${_cuzk_proto_out} --plugin=protoc-gen-grpc=${_cuzk_grpc_plugin} ${_cuzk_proto_file}
    DEPENDS ${_cuzk_proto_root}/${_cuzk_proto_file}
    COMMENT "protoc ${_cuzk_proto_file} (C++ + gRPC)"
    VERBATIM)

  add_library(cuzk_proto STATIC ${_cuzk_proto_gen})
  # SYSTEM: generated headers do not trip the project's -Wall -Wextra in the code that includes them.
  target_include_directories(cuzk_proto SYSTEM PUBLIC ${_cuzk_proto_out})
  target_link_libraries(cuzk_proto PUBLIC ${_cuzk_grpcpp} protobuf::libprotobuf)
  target_compile_options(cuzk_proto PRIVATE -w)  # generated code: its warnings are not ours to fix
  set(CUZK_HAVE_GRPC ON)
  message(STATUS "cuzk: gRPC ON (protobuf ${Protobuf_VERSION}, grpc++ via ${_cuzk_grpcpp})")
endif()
