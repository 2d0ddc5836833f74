# Warning flags for every dsgx target; -Werror with DSGX_WERROR (CI), sanitizers with DSGX_SANITIZE.
function(dsgx_apply_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wshadow -Wstrict-prototypes
                         -Wmissing-prototypes -Wno-unused-parameter)
  if(DSGX_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

if(DSGX_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined -fno-sanitize-recover=all)
endif()
