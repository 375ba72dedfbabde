# SPDX-License-Identifier: BSD-3-Clause
# Warnings per target (never global flags), -Werror on request (developer preset and CI), and the
# sanitizer build.
function(nprb_target_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2
    -Wpointer-arith -Wcast-align -Wvla
    # Results rows have fixed-size text columns: snprintf truncating into them is the intent.
    -Wno-format-truncation)
  if(NPRB_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

function(nprb_target_sanitize target)
  if(NPRB_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined
                           -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
endfunction()
