#!/usr/bin/env bash
# parallax-index under mpirun (ctest index/mpi-*, tests/CMakeLists.txt).
#
#   mpi_index_test.sh same RANKS    MPIEXEC INDEXER CLI RUN
#       indexes RUN on RANKS ranks, then every CSV below through --index must be byte for byte
#       what a plain load (--no-cache) prints
#   mpi_index_test.sh threads       MPIEXEC INDEXER CLI RUN
#       one rank of 3 threads bound to one core: the index is built and the same as one thread's,
#       with a warning that names the binding and the way out; unbound, no warning
#   mpi_index_test.sh refuse        MPIEXEC INDEXER CLI RUN SMALL_RUN
#       more ranks than PEs, a rank that cannot read the run, and an index that cannot be used:
#       a one-line message and exit code 2 or 1, no index left that looks complete
#
# Runs are copied into a temporary directory with their files an hour old (parallax-index, like
# the index cache, refuses files changed in the last 2 s). --oversubscribe: more ranks than cores;
# --allow-run-as-root when the tests run as root (CI).
set -euo pipefail

mode=$1
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() {
    echo "FAILED: $*" >&2
    exit 1
}

mpi_flags=(--oversubscribe)
if [ "$(id -u)" -eq 0 ]; then
    mpi_flags+=(--allow-run-as-root)
fi
# The sanitizer build (tools/test-sanitizers.sh): OpenMPI never frees what MPI_Init allocates,
# much of it inside components it unloads, so no suppression can name them. Leak detection is off
# for the ranks only; the index writer they run is the index cache's, whose leaks the other tests
# check, and the CLI below still runs with leak detection on.
if [ -n "${ASAN_OPTIONS:-}" ]; then
    mpi_flags+=(-x "ASAN_OPTIONS=$ASAN_OPTIONS:detect_leaks=0")
fi

aged_copy() { # SOURCE DEST
    mkdir -p "$2"
    find "$1" -maxdepth 1 -type f -exec cp {} "$2"/ \;
    touch -d '1 hour ago' "$2"/* "$2"
}

# Runs a command that must fail with exit code $1 and one stderr line holding $2.
expect_failure() { # CODE TEXT COMMAND...
    local code=$1 text=$2
    shift 2
    local rc=0
    "$@" >"$work/out" 2>"$work/err" || rc=$?
    [ "$rc" -eq "$code" ] || fail "$* exited $rc, expected $code: $(cat "$work/err")"
    grep -qF -- "$text" "$work/err" || fail "$* did not say '$text': $(cat "$work/err")"
    [ "$(grep -c . "$work/err")" -ge 1 ] || fail "$* printed no message"
}

case "$mode" in
same)
    ranks=$1 mpiexec=$2 indexer=$3 cli=$4 run=$5
    aged_copy "$run" "$work/run"
    "$mpiexec" "${mpi_flags[@]}" -n "$ranks" "$indexer" "$work/run" -o "$work/index" \
        >"$work/indexer.out" || fail "parallax-index on $ranks ranks: $(cat "$work/indexer.out")"
    [ -f "$work/index/manifest" ] || fail "no manifest"
    [ "$(ls "$work/index"/shard-*-of-"$ranks".pxshard | wc -l)" -eq "$ranks" ] ||
        fail "not one shard per rank"
    commands=(
        "info" "timeline --pe 0" "usage" "usage --compat java" "time-profile" "overview"
        "histogram" "histogram --metric msg-size" "comm" "extrema --criterion least-idle"
        "extrema --criterion clustering" "groups --by node"
    )
    for c in "${commands[@]}"; do
        read -r -a args <<<"$c"
        cmd=${args[0]}
        rest=("${args[@]:1}")
        "$cli" "$cmd" "$work/run" "${rest[@]}" --no-cache >"$work/plain" 2>"$work/plain.err" ||
            fail "$c --no-cache"
        "$cli" "$cmd" "$work/run" "${rest[@]}" --index "$work/index" >"$work/mapped" \
            2>"$work/mapped.err" || fail "$c --index: $(cat "$work/mapped.err")"
        if [ "$cmd" = info ]; then
            sed -i '/^load_seconds:/d' "$work/plain" "$work/mapped"
        fi
        cmp -s "$work/plain" "$work/mapped" || fail "$c differs through the index of $ranks ranks"
        cmp -s "$work/plain.err" "$work/mapped.err" || fail "$c: stderr differs"
    done
    ;;
threads)
    mpiexec=$1 indexer=$2 cli=$3 run=$4
    aged_copy "$run" "$work/run"
    "$mpiexec" "${mpi_flags[@]}" --bind-to core -n 1 "$indexer" "$work/run" -o "$work/bound" \
        --threads 3 >"$work/bound.out" 2>"$work/bound.err" ||
        fail "3 threads on one core: $(cat "$work/bound.err")"
    grep -qF "3 threads per rank, but a rank may run on only 1 core (its CPU binding)" \
        "$work/bound.err" || fail "no warning for threads bound to one core: $(cat "$work/bound.err")"
    grep -qF -- "--bind-to none" "$work/bound.err" || fail "the warning does not say the way out"
    grep -qF "; 1 core)" "$work/bound.out" || fail "the rank's line does not say its core"
    "$mpiexec" "${mpi_flags[@]}" --bind-to none -n 1 "$indexer" "$work/run" -o "$work/one" \
        --threads 1 >/dev/null 2>"$work/one.err" || fail "one thread: $(cat "$work/one.err")"
    [ ! -s "$work/one.err" ] || fail "a warning for one unbound thread: $(cat "$work/one.err")"
    for c in "usage" "timeline --pe 1" "histogram"; do
        read -r -a args <<<"$c"
        "$cli" "${args[0]}" "$work/run" "${args[@]:1}" --index "$work/bound" >"$work/a" ||
            fail "$c on the index of 3 bound threads"
        "$cli" "${args[0]}" "$work/run" "${args[@]:1}" --index "$work/one" >"$work/b" ||
            fail "$c on the index of one thread"
        cmp -s "$work/a" "$work/b" || fail "$c differs between 3 threads and 1"
    done
    ;;
refuse)
    mpiexec=$1 indexer=$(readlink -f "$2") cli=$3 run=$4 small=$5
    aged_copy "$run" "$work/run"
    aged_copy "$small" "$work/small"
    pes=$(find "$work/small" -name '*.log*' | wc -l)
    # More ranks than PEs: a usage error, before anything is written.
    expect_failure 2 "use at most $pes ranks" \
        "$mpiexec" "${mpi_flags[@]}" -n $((pes + 1)) "$indexer" "$work/small" -o "$work/nothing"
    [ ! -e "$work/nothing" ] || fail "an index directory was made for a refused job"
    # Rank 1 works in a directory where the run (a relative path) is not: a node that does not
    # see the run's file system.
    mkdir -p "$work/elsewhere"
    expect_failure 1 "rank 1" \
        "$mpiexec" "${mpi_flags[@]}" -n 1 --wdir "$work" "$indexer" run -o "$work/index" : \
        -n 1 --wdir "$work/elsewhere" "$indexer" run -o "$work/index"
    [ ! -e "$work/index/manifest" ] || fail "a manifest after a failed job"
    # A good index, then the ways it can be unusable.
    "$mpiexec" "${mpi_flags[@]}" -n 2 "$indexer" "$work/run" -o "$work/index" >/dev/null ||
        fail "parallax-index on 2 ranks"
    "$cli" usage "$work/run" --index "$work/index" >/dev/null || fail "the index is not usable"
    expect_failure 1 "an index of another run" "$cli" usage "$work/small" --index "$work/index"
    cp -r "$work/index" "$work/old"
    printf '\x02' | dd of="$work/old/manifest" bs=1 seek=8 conv=notrunc status=none
    expect_failure 1 "another version (format 2" "$cli" usage "$work/run" --index "$work/old"
    cp -r "$work/index" "$work/cut"
    truncate -s -100 "$work/cut/shard-1-of-2.pxshard"
    expect_failure 1 "is truncated" "$cli" usage "$work/run" --index "$work/cut"
    cp -r "$work/index" "$work/gone"
    rm "$work/gone/shard-0-of-2.pxshard"
    expect_failure 1 "which is missing" "$cli" usage "$work/run" --index "$work/gone"
    ;;
*)
    fail "unknown mode $mode"
    ;;
esac
echo "ok"
