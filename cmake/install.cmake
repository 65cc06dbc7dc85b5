# `cmake --install`: headers under include/cnnx, the shared and static libraries, the cnnx program,
# cnnxConfig.cmake (find_package(cnnx 0.2), targets cnnx::cnnx and cnnx::cnnx_static) and cnnx.pc.
include(CMakePackageConfigHelpers)

# <cnnx/cnnx.h> includes the core types as "engine/tensor.h" etc.: they go to include/cnnx/engine/.
install(FILES api/cnnx.h api/cnnx_c.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/cnnx)
install(FILES engine/backend.h engine/tensor.h engine/dtype.h engine/shape.h engine/error.h engine/limits.h
              engine/precision.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/cnnx/engine)
install(TARGETS cnnx cnnx_static EXPORT cnnxTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS cnnx_tool RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

set(CNNX_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/cnnx)
install(EXPORT cnnxTargets NAMESPACE cnnx:: DESTINATION ${CNNX_CMAKE_DIR})
configure_package_config_file(cmake/cnnxConfig.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/cnnxConfig.cmake
                              INSTALL_DESTINATION ${CNNX_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/cnnxConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/cnnxConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/cnnxConfigVersion.cmake
        DESTINATION ${CNNX_CMAKE_DIR})

# The .pc file finds the prefix relative to itself, so an installed tree can be moved (or --prefix given late).
file(RELATIVE_PATH CNNX_PC_UP /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
configure_file(cmake/cnnx.pc.in ${CMAKE_CURRENT_BINARY_DIR}/cnnx.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/cnnx.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
