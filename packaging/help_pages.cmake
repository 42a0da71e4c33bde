# Writes a program's man page, and for parallax-cli its bash completion, from the program's own
# --help texts (and each command's), so neither repeats by hand what --help says:
#
#   cmake -DPROGRAM=path/to/exe -DNAME=parallax-cli -DSUMMARY="one line" -DVERSION=0.1.0
#         -DDATE=2026-11-27 -DMAN=out/parallax-cli.1 [-DCOMMANDS=ON]
#         [-DCOMPLETION=out/parallax-cli] [-DSEE_ALSO="parallax(1)"] -P help_pages.cmake
#
# COMMANDS=ON: the program has commands (the "commands:" section of its --help); the page gets
# one subsection per command with `NAME COMMAND --help`, and COMPLETION lists the commands and
# each command's options (every --option its help names, and the common options).

cmake_minimum_required(VERSION 3.25)

foreach(required PROGRAM NAME SUMMARY VERSION DATE MAN)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "help_pages.cmake: -D${required}=... is required")
  endif()
endforeach()

# Sanitizer builds run the program too; a leak report must not fail the build.
set(ENV{ASAN_OPTIONS} "detect_leaks=0")

function(help_text out)
  execute_process(COMMAND "${PROGRAM}" ${ARGN} --help
    OUTPUT_VARIABLE text ERROR_VARIABLE error RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${NAME} ${ARGN} --help failed (${rc}): ${error}")
  endif()
  # The program as it was started (a build path) reads as its name.
  string(REPLACE "${PROGRAM}" "${NAME}" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# The lines of `text` as a CMake list. Semicolons and brackets would split or glue list items,
# so they travel as placeholders until help_line() restores them.
function(help_lines out text)
  string(REPLACE ";" "@SEMICOLON@" text "${text}")
  string(REPLACE "[" "@OPEN@" text "${text}")
  string(REPLACE "]" "@CLOSE@" text "${text}")
  string(REGEX REPLACE "\n$" "" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  set(${out} "${lines}" PARENT_SCOPE)
endfunction()

function(help_line out line)
  string(REPLACE "@SEMICOLON@" ";" line "${line}")
  string(REPLACE "@OPEN@" "[" line "${line}")
  string(REPLACE "@CLOSE@" "]" line "${line}")
  set(${out} "${line}" PARENT_SCOPE)
endfunction()

# One line of help text as roff inside a no-fill block: backslashes and hyphens escaped (so
# options copy as ASCII), a leading dot or quote kept from being read as a request.
function(roff_line out line)
  help_line(line "${line}")
  string(REPLACE "\\" "\\e" line "${line}")
  string(REPLACE "-" "\\-" line "${line}")
  if(line MATCHES "^[.']")
    set(line "\\&${line}")
  endif()
  set(${out} "${line}" PARENT_SCOPE)
endfunction()

# A help text (without its usage line) as a no-fill roff block.
function(roff_block out text)
  help_lines(lines "${text}")
  set(block ".nf\n")
  foreach(line IN LISTS lines)
    roff_line(line "${line}")
    string(APPEND block "${line}\n")
  endforeach()
  string(APPEND block ".fi\n")
  set(${out} "${block}" PARENT_SCOPE)
endfunction()

# Splits a help text into its usage line (without "usage:") and the rest.
function(split_usage text usage_out rest_out)
  string(REGEX MATCH "^[Uu]sage: ([^\n]*)\n" first "${text}")
  set(usage "${CMAKE_MATCH_1}")
  string(LENGTH "${first}" skip)
  string(SUBSTRING "${text}" ${skip} -1 rest)
  string(REGEX REPLACE "^\n+" "" rest "${rest}")
  set(${usage_out} "${usage}" PARENT_SCOPE)
  set(${rest_out} "${rest}" PARENT_SCOPE)
endfunction()

# The lines of a section ("commands:", "common options:") up to the next empty line.
function(section_lines out text title)
  help_lines(lines "${text}")
  set(inside OFF)
  set(result "")
  foreach(line IN LISTS lines)
    if(inside AND line STREQUAL "")
      break()
    endif()
    if(inside)
      list(APPEND result "${line}")
    endif()
    if(line STREQUAL "${title}")
      set(inside ON)
    endif()
  endforeach()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

function(options_of out text)
  string(REGEX MATCHALL "--[a-z][a-z0-9-]*" options "${text}")
  if(text MATCHES "(^|[ [(])-o[ ,]")
    list(APPEND options "-o")
  endif()
  list(REMOVE_DUPLICATES options)
  list(SORT options)
  set(${out} "${options}" PARENT_SCOPE)
endfunction()

help_text(main_help)
split_usage("${main_help}" synopsis description)
string(TOUPPER "${NAME}" title)
roff_line(roff_name "${NAME}")
roff_line(roff_synopsis "${synopsis}")
roff_line(roff_summary "${SUMMARY}")
set(page ".\\\" Generated from `${NAME} --help` by packaging/help_pages.cmake; do not edit.\n")
string(APPEND page ".TH ${title} 1 \"${DATE}\" \"Parallax ${VERSION}\" \"User Commands\"\n")
string(APPEND page ".SH NAME\n${roff_name} \\- ${roff_summary}\n")
string(APPEND page ".SH SYNOPSIS\n${roff_synopsis}\n")
roff_block(block "${description}")
string(APPEND page ".SH DESCRIPTION\n${block}")

set(commands "")
if(COMMANDS)
  section_lines(command_lines "${main_help}" "commands:")
  foreach(line IN LISTS command_lines)
    if(line MATCHES "^  ([a-z][a-z0-9-]*)( |$)")
      list(APPEND commands "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  if(NOT commands)
    message(FATAL_ERROR "no commands found in `${NAME} --help`")
  endif()
  section_lines(common_lines "${main_help}" "common options:")
  string(REPLACE ";" "\n" common_text "${common_lines}")
  options_of(common_options "${common_text}")
  string(APPEND page ".SH COMMANDS\n")
  set(completion_cases "")
  set(views "")
  foreach(command IN LISTS commands)
    help_text(command_help ${command})
    roff_block(block "${command_help}")
    string(APPEND page ".SS ${command}\n${block}")
    options_of(command_options "${command_help}")
    list(APPEND command_options ${common_options} --help)
    list(REMOVE_ITEM command_options --version) # of the program, not of a command
    list(REMOVE_DUPLICATES command_options)
    list(SORT command_options)
    list(JOIN command_options " " joined)
    string(APPEND completion_cases "    ${command}) echo '${joined}' ;;\n")
    # `render VIEW`: the views its help lists ("VIEW: overview, usage, ...,\n ... compare.").
    if(command_help MATCHES "VIEW: ([a-z, \n-]+)\\.")
      string(REGEX MATCHALL "[a-z][a-z-]*" views "${CMAKE_MATCH_1}")
    endif()
  endforeach()
endif()

if(DEFINED SEE_ALSO)
  string(APPEND page ".SH SEE ALSO\n${SEE_ALSO}\n")
endif()
file(WRITE "${MAN}.tmp" "${page}")
file(RENAME "${MAN}.tmp" "${MAN}")
# The installed page is compressed, as Debian's policy asks.
file(ARCHIVE_CREATE OUTPUT "${MAN}.gz.tmp" PATHS "${MAN}" FORMAT raw COMPRESSION GZip
  COMPRESSION_LEVEL 9)
file(RENAME "${MAN}.gz.tmp" "${MAN}.gz")

if(DEFINED COMPLETION)
  list(JOIN commands " " command_words)
  list(JOIN views " " view_words)
  set(script "# bash completion for ${NAME}: its commands, each command's options, files.\n")
  string(APPEND script "# Generated from `${NAME} --help` by packaging/help_pages.cmake; do not edit.\n")
  string(APPEND script "_parallax_cli_options() {\n    case \"$1\" in\n${completion_cases}")
  string(APPEND script "    *) echo '--help' ;;\n    esac\n}\n\n")
  string(APPEND script "_parallax_cli() {\n")
  string(APPEND script "    local cur=\${COMP_WORDS[COMP_CWORD]}\n")
  string(APPEND script "    if ((COMP_CWORD == 1)); then\n")
  string(APPEND script "        mapfile -t COMPREPLY < <(compgen -W '${command_words} --help --version' -- \"$cur\")\n")
  string(APPEND script "        return\n    fi\n")
  string(APPEND script "    local command=\${COMP_WORDS[1]}\n")
  string(APPEND script "    if [[ $cur == -* ]]; then\n")
  string(APPEND script "        mapfile -t COMPREPLY < <(compgen -W \"$(_parallax_cli_options \"$command\")\" -- \"$cur\")\n")
  string(APPEND script "        return\n    fi\n")
  string(APPEND script "    if [[ $command == render ]] && ((COMP_CWORD == 2)); then\n")
  string(APPEND script "        mapfile -t COMPREPLY < <(compgen -W '${view_words}' -- \"$cur\")\n")
  string(APPEND script "        return\n    fi\n")
  string(APPEND script "    compopt -o filenames 2>/dev/null\n")
  string(APPEND script "    mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n}\n\n")
  string(APPEND script "complete -F _parallax_cli ${NAME}\n")
  file(WRITE "${COMPLETION}.tmp" "${script}")
  file(RENAME "${COMPLETION}.tmp" "${COMPLETION}")
endif()
