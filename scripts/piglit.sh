#!/usr/bin/env bash
# piglit (the GL conformance suite) against ArenaGL and its peers, on a fixed list of tests.
#
#   scripts/piglit.sh fetch                         — download + unpack piglit once (target/piglit)
#   scripts/piglit.sh run arenagl|llvmpipe|zink [LIST]
#                                                   — run LIST (default tests/piglit/list.txt);
#                                                     prints one `result  test` line per test and a
#                                                     summary; results in target/piglit/results/
#   scripts/piglit.sh check [LIST]                  — run ArenaGL on LIST, compare with
#                                                     tests/piglit/expected.txt; non-zero exit on a
#                                                     regression (a listed pass that no longer passes)
#   scripts/piglit.sh compare [LIST]                — run all three, write docs/results/piglit.md
#   scripts/piglit.sh report [LIST [SECONDS]]       — rewrite that page from the last three runs
#   scripts/piglit.sh check-sample SEED COUNT       — `check` on that random sample (CI: 2026 400)
#   scripts/piglit.sh sample SEED COUNT             — compare on COUNT tests drawn at random (with
#                                                     SEED) from piglit's whole GL and GL ES
#                                                     list (tests/piglit/sample.py), writing
#                                                     docs/results/piglit-sample-SEED-COUNT.md
# PIGLIT_REPORT=FILE puts compare's/report's page elsewhere.
#
# Design:
# - No piglit install: `apt-get download piglit libwaffle-1-0` into target/piglit/debs and
#   `dpkg-deb -x`-style unpacking into target/piglit/root. The package's generated_tests/ is 1.9 GiB
#   and is skipped; only the generated .shader_test files a list names are unpacked (on demand).
#   When the debs cannot be downloaded (no network, no apt lists) the script exits with 77, the
#   "skipped" status, so CI can tell "cannot fetch" from "tests failed".
# - The implementation is chosen per process, never installed. ArenaGL is glvnd's only EGL vendor
#   (__EGL_VENDOR_LIBRARY_FILENAMES naming a vendor JSON for libarenagl.so, src/abi/glvnd.rs), with
#   the system's glvnd libEGL.so.1/libGL.so.1 left in place. Not `arenagl run`'s soname symlinks:
#   piglit's libpiglitutil_gl.so is linked with immediate binding against glX* symbols of libGL.so.1
#   (which libarenagl.so does not export: "symbol lookup error" at start), so libGL must stay
#   glvnd's, whose dispatch then reaches ArenaGL through the vendor. The library is $ARENAGL_LIB, else the newest
#   libarenagl.so under ${CARGO_TARGET_DIR:-target}/{release,debug}. Mesa's llvmpipe is the system
#   libEGL; Zink is Mesa with MESA_LOADER_DRIVER_OVERRIDE=zink LIBGL_ALWAYS_SOFTWARE=1.
#   (libarenagl.so links with -Bsymbolic-functions, so glvnd cannot interpose its own symbols.)
#   All run surfaceless (PIGLIT_PLATFORM=surfaceless_egl, EGL_PLATFORM=surfaceless), each with a
#   fresh XDG_CACHE_HOME so no run inherits another's shader caches.
# - A list line is the command under piglit's bin/ (`fbo-blit -auto -fbo`); a `.shader_test` path
#   is relative to piglit's directory. `#` starts a comment. The line itself is the test's name.
# - Each test runs in its own process under `timeout` ($PIGLIT_TIMEOUT s, default 30), $PIGLIT_JOBS
#   at a time (default 2). The result is the last `PIGLIT: {"result": …}` line; a process killed by
#   the timeout is `timeout`, one killed by a signal or ending without a result is `crash`.
# - Do not edit this script while a run is in progress: bash reads it as it goes and every test's
#   worker (`_one`) re-reads it.
# - expected.txt lines are `test | result | reason`; every non-pass needs a reason. `check` treats
#   only pass→non-pass as a regression; fail→pass is printed as an improvement to record.
set -euo pipefail

root_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=${PIGLIT_WORK:-$root_dir/target/piglit}
pkgroot=$work/root
libdir=$pkgroot/usr/lib/x86_64-linux-gnu
piglit_dir=$libdir/piglit
default_list=$root_dir/tests/piglit/list.txt
expected=$root_dir/tests/piglit/expected.txt
timeout_s=${PIGLIT_TIMEOUT:-30}
jobs=${PIGLIT_JOBS:-2}

die() {
  echo "piglit.sh: $*" >&2
  exit 1
}

# The list's tests, comments and blank lines removed, surrounding spaces trimmed.
list_tests() {
  sed -e 's/#.*//' -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' "$1" | grep -v '^$' || true
}

# Runs "$@" holding $work/fetch.lock: two checks started at once (cargo runs tests/piglit.rs's
# tests in parallel) must not both download and unpack into the same directory.
with_fetch_lock() {
  mkdir -p "$work"
  (
    flock 9
    "$@"
  ) 9>"$work/fetch.lock"
}

fetch() {
  with_fetch_lock fetch_unlocked
  [ -x "$piglit_dir/bin/shader_runner" ] || die "no shader_runner in $piglit_dir/bin after unpacking"
}

fetch_unlocked() {
  if [ ! -x "$piglit_dir/bin/shader_runner" ]; then
    command -v apt-get >/dev/null || die "apt-get not found: piglit comes from Debian's package"
    mkdir -p "$work/debs"
    if ! ls "$work"/debs/piglit_*.deb "$work"/debs/libwaffle-1-0_*.deb >/dev/null 2>&1; then
      echo "piglit.sh: downloading piglit and libwaffle-1-0 (~34 MB)" >&2
      if ! (cd "$work/debs" && apt-get download piglit libwaffle-1-0 >"$work/debs/download.log" 2>&1); then
        if [ -z "$(ls /var/lib/apt/lists/*_Packages 2>/dev/null)" ]; then
          (cd "$work/debs" && { apt-get update -qq && apt-get download piglit libwaffle-1-0; } \
            >>"$work/debs/download.log" 2>&1) || true
        fi
        if ! ls "$work"/debs/piglit_*.deb >/dev/null 2>&1; then
          echo "piglit.sh: cannot download the piglit debs (no network?); see $work/debs/download.log" >&2
          tail -3 "$work/debs/download.log" >&2 || true
          exit 77
        fi
      fi
    fi
    echo "piglit.sh: unpacking into $pkgroot (without generated_tests/)" >&2
    rm -rf "$pkgroot.tmp" && mkdir -p "$pkgroot.tmp"
    for deb in "$work"/debs/*.deb; do
      dpkg-deb --fsys-tarfile "$deb" |
        tar -x -C "$pkgroot.tmp" --exclude='./usr/lib/x86_64-linux-gnu/piglit/generated_tests/*'
    done
    rm -rf "$pkgroot" && mv "$pkgroot.tmp" "$pkgroot"
  fi
}

# Unpacks the generated .shader_test files LIST names that are not there yet.
fetch_generated() {
  with_fetch_lock fetch_generated_unlocked "$1"
}

fetch_generated_unlocked() {
  local list=$1 missing=()
  while read -r path; do
    [ -e "$piglit_dir/$path" ] || missing+=("./usr/lib/x86_64-linux-gnu/piglit/$path")
  done < <(list_tests "$list" | grep -o 'generated_tests/[^ ]*' || true)
  [ "${#missing[@]}" -eq 0 ] && return 0
  dpkg-deb --fsys-tarfile "$(ls "$work"/debs/piglit_*.deb | head -1)" | tar -x -C "$pkgroot" "${missing[@]}"
}

arenagl_lib() {
  if [ -n "${ARENAGL_LIB:-}" ]; then
    [ -f "$ARENAGL_LIB" ] || die "ARENAGL_LIB=$ARENAGL_LIB does not exist"
    echo "$ARENAGL_LIB"
    return
  fi
  local t=${CARGO_TARGET_DIR:-$root_dir/target} newest
  newest=$(ls -t "$t"/release/libarenagl.so "$t"/debug/libarenagl.so 2>/dev/null | head -1 || true)
  [ -n "$newest" ] || die "no libarenagl.so under $t/{release,debug}: build it (cargo build -p arenagl --lib) or set ARENAGL_LIB"
  echo "$newest"
}

# Prints the environment (NAME=VALUE lines) that selects implementation $1.
impl_env() {
  local ld="$libdir:$piglit_dir/lib"
  case $1 in
    arenagl)
      local lib links=$2/vendor
      lib=$(realpath "$(arenagl_lib)")
      rm -rf "$links" && mkdir -p "$links"
      ln -s "$lib" "$links/libEGL_arenagl.so.0"
      printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s"}}\n' \
        "$links/libEGL_arenagl.so.0" >"$links/50_arenagl.json"
      echo "LD_LIBRARY_PATH=$ld"
      echo "__EGL_VENDOR_LIBRARY_FILENAMES=$links/50_arenagl.json"
      echo "ARENAGL_TELEMETRY=0"
      # GL errors with their reasons in each test's log: the source of expected.txt's reasons.
      echo "ARENAGL_LOG=${ARENAGL_LOG:-info}"
      echo "ARENAGL_LIBRARY_USED=$lib"
      ;;
    llvmpipe) echo "LD_LIBRARY_PATH=$ld" ;;
    zink)
      echo "LD_LIBRARY_PATH=$ld"
      echo "MESA_LOADER_DRIVER_OVERRIDE=zink"
      echo "LIBGL_ALWAYS_SOFTWARE=1"
      ;;
    *) die "unknown implementation '$1' (arenagl, llvmpipe or zink)" ;;
  esac
}

# Internal: runs test number $2 (1-based, of the cleaned list in $outdir/tests) for one run.
# The environment is already set by `run`.
one() {
  local outdir=$1 n=$2 line rc result
  line=$(sed -n "${n}p" "$outdir/tests")
  local -a argv
  read -r -a argv <<<"$line"
  # glslparsertest takes a GLSL ES version as one argument ("3.10 es"), which the line splits.
  if [[ ${argv[0]} == glslparsertest* && ${argv[4]:-} == es ]]; then
    argv=("${argv[@]:0:3}" "${argv[3]} es" "${argv[@]:5}")
  fi
  local log=$outdir/logs/$n.log
  local t0=$EPOCHREALTIME
  set +e
  # The outer braces catch bash's own "Aborted"/"Segmentation fault" report: a crash is a result
  # recorded in the log, not noise on the terminal.
  { (cd "$piglit_dir" && exec timeout -k 5 "$timeout_s" "$piglit_dir/bin/${argv[0]}" "${argv[@]:1}") >"$log" 2>&1 </dev/null; } 2>/dev/null
  rc=$?
  set -e
  echo "$EPOCHREALTIME $t0" | awk '{printf "%.1f\n", $1 - $2}' >"$outdir/logs/$n.time"
  result=$(grep -o 'PIGLIT: {"result": *"[a-z]*"' "$log" | tail -1 | sed 's/.*"\([a-z]*\)"$/\1/' || true)
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    result=timeout
  elif [ "$rc" -gt 128 ] || [ -z "$result" ]; then
    result=crash
  fi
  echo "exit status $rc" >>"$log"
  echo "$result" >"$outdir/logs/$n.result"
}

# run IMPL LIST: writes $work/results/IMPL.txt (`test | result` lines, list order).
run_impl() {
  local impl=$1 list=$2
  [ -f "$list" ] || die "no list $list"
  fetch
  fetch_generated "$list"
  # A directory per run (several people may run the same implementation at once); the newest
  # finished run's results are also copied to $work/results/IMPL.txt.
  local outdir=$work/out/$impl.$$
  rm -rf "$outdir" && mkdir -p "$outdir/logs" "$work/results"
  list_tests "$list" >"$outdir/tests"
  local count
  count=$(wc -l <"$outdir/tests")
  [ "$count" -gt 0 ] || die "$list has no tests"
  local envs=()
  mapfile -t envs < <(impl_env "$impl" "$outdir")
  mkdir -p "$outdir/cache"
  local start=$SECONDS
  env "${envs[@]}" XDG_CACHE_HOME="$outdir/cache" PIGLIT_PLATFORM=surfaceless_egl \
    EGL_PLATFORM=surfaceless PIGLIT_SOURCE_DIR="$piglit_dir" \
    PIGLIT_WORK="$work" PIGLIT_TIMEOUT="$timeout_s" \
    xargs -P "$jobs" -I{} "$0" _one "$outdir" {} < <(seq 1 "$count")
  local results=$outdir/results.txt
  last_results=$results
  : >"$results"
  : >"$results.times"
  local n=0 test
  while IFS= read -r test; do
    n=$((n + 1))
    echo "$test | $(cat "$outdir/logs/$n.result" 2>/dev/null || echo crash)" >>"$results"
    echo "$(cat "$outdir/logs/$n.time" 2>/dev/null || echo '?') s  $test" >>"$results.times"
  done <"$outdir/tests"
  for e in "${envs[@]}"; do
    case $e in ARENAGL_LIBRARY_USED=*) echo "piglit.sh: ArenaGL is ${e#*=}" >&2 ;; esac
  done
  rm -rf "$outdir/cache"
  cp "$results" "$work/results/$impl.txt.$$" && mv "$work/results/$impl.txt.$$" "$work/results/$impl.txt"
  cp "$results.times" "$work/results/$impl.txt.times"
  echo "piglit.sh: $impl: $count tests in $((SECONDS - start)) s; logs in $outdir/logs/N.log" >&2
}

# summary RESULTS-FILE: `N pass, M fail, … of T`
summary() {
  awk -F' [|] ' '{c[$2]++; t++} END {
    printf "%d pass, %d fail, %d skip, %d warn, %d crash, %d timeout of %d\n",
      c["pass"], c["fail"], c["skip"], c["warn"], c["crash"], c["timeout"], t }' "$1"
}

check() {
  local list=$1
  [ -f "$expected" ] || die "no $expected"
  run_impl arenagl "$list"
  local results=$last_results
  # Malformed expectations are errors of their own: every line `test | result | reason`, every
  # non-pass with a reason, every listed test present.
  local bad
  bad=$(awk -F' [|] ' '!/^#/ && NF > 0 && ($2 == "" || ($2 != "pass" && $3 == "")) {print "  " $0}' "$expected")
  [ -z "$bad" ] || die "expected.txt lines without a result or a reason:"$'\n'"$bad"
  local regressions=0 improvements=0 changes=0 test result want
  while IFS= read -r line; do
    test=${line% | *}
    result=${line##* | }
    want=$(awk -F' [|] ' -v t="$test" '$1 == t {print $2; exit}' "$expected")
    if [ -z "$want" ]; then
      echo "MISSING   $test: not in expected.txt (now $result)"
      regressions=$((regressions + 1))
    elif [ "$want" = pass ] && [ "$result" != pass ]; then
      echo "REGRESSED $test: expected pass, got $result"
      regressions=$((regressions + 1))
    elif [ "$want" != pass ] && [ "$result" = pass ]; then
      echo "IMPROVED  $test: expected $want, now passes — update expected.txt"
      improvements=$((improvements + 1))
    elif [ "$want" != "$result" ]; then
      echo "CHANGED   $test: expected $want, got $result (not a regression)"
      changes=$((changes + 1))
    fi
  done <"$results"
  echo "piglit: $(summary "$results")"
  echo "piglit: $regressions regressions, $improvements improvements, $changes other changes against expected.txt"
  [ "$regressions" -eq 0 ] || exit 1
}

compare() {
  local list=$1
  local impls=(arenagl llvmpipe zink) impl
  local start=$SECONDS
  for impl in "${impls[@]}"; do
    run_impl "$impl" "$list"
  done
  report "$list" "$((SECONDS - start))"
}

# report LIST SECONDS: docs/results/piglit.md from the three results files of the last runs.
report() {
  local list=$1 took=$2 out=${PIGLIT_REPORT:-$root_dir/docs/results/piglit.md}
  local impls=(arenagl llvmpipe zink) impl
  local r=$work/results
  for impl in "${impls[@]}"; do
    [ -f "$r/$impl.txt" ] || die "no $r/$impl.txt: run scripts/piglit.sh compare"
  done
  {
    echo "# piglit: ArenaGL, llvmpipe and Zink on the same list"
    echo
    echo "Written by \`scripts/piglit.sh compare\` in one run on $(date -u +%Y-%m-%d) ($(nproc) cores, ${took} s for all three)."
    echo "List: \`${list#"$root_dir"/}\` ($(wc -l <"$r/arenagl.txt") tests; piglit $(ls "$work"/debs/piglit_*.deb | sed 's/.*piglit_\(.*\)_amd64.deb/\1/'), Debian package)."
    echo "Each test in its own process, surfaceless EGL, \`-auto -fbo\` (the compiler tests as piglit runs them, without), ${timeout_s} s timeout. Mesa: $(dpkg-query -W -f='${Version}' libgl1-mesa-dri 2>/dev/null || echo '?')."
    echo "ArenaGL's reasons for each non-pass are in \`tests/piglit/expected.txt\`."
    echo
    echo "| implementation | pass | fail | skip | warn | crash | timeout | total |"
    echo "|---|---|---|---|---|---|---|---|"
    for impl in "${impls[@]}"; do
      awk -F' [|] ' -v n="$impl" '{c[$2]++; t++} END {
        printf "| %s | %d | %d | %d | %d | %d | %d | %d |\n", n, c["pass"], c["fail"], c["skip"],
          c["warn"], c["crash"], c["timeout"], t }' "$r/$impl.txt"
    done
    echo
    echo "## Per family (pass counts: ArenaGL / llvmpipe / Zink)"
    echo
    echo "| family | tests | ArenaGL | llvmpipe | Zink |"
    echo "|---|---|---|---|---|"
    family_table "$list" "$r"
    if [ -f "$expected" ]; then
      echo
      echo "## ArenaGL's most common reasons for a non-pass (from tests/piglit/expected.txt)"
      echo
      echo "| tests | reason |"
      # (awk reads all of sort's output: `head` would close the pipe early, and with pipefail
      # sort's SIGPIPE would end the report here.)
      echo "|---|---|"
      awk -F' [|] ' '!/^#/ && NF >= 3 && $2 != "pass" {c[$3]++} END {for (r in c) printf "%d\t%s\n", c[r], r}' \
        "$expected" | sort -t$'\t' -k1,1nr -k2 | awk -F'\t' 'NR <= 25 {printf "| %d | %s |\n", $1, $2}'
    fi
    echo
    echo "## Per test"
    echo
    echo "| test | ArenaGL | llvmpipe | Zink |"
    echo "|---|---|---|---|"
    paste -d'\t' "$r/arenagl.txt" "$r/llvmpipe.txt" "$r/zink.txt" |
      awk -F'\t' '{ split($1, a, / [|] /); split($2, b, / [|] /); split($3, c, / [|] /);
        printf "| `%s` | %s | %s | %s |\n", a[1], a[2], b[2], c[2] }'
  } >"$out"
  echo "piglit.sh: wrote ${out#"$root_dir"/}" >&2
  for impl in "${impls[@]}"; do
    echo "piglit: $impl: $(summary "$r/$impl.txt")"
  done
}

# family_table LIST RESULTS-DIR: one row per `# family` heading in the list.
family_table() {
  awk -v r="$2" '
    BEGIN {
      split("arenagl llvmpipe zink", impls, " ")
      for (i = 1; i <= 3; i++) {
        f = r "/" impls[i] ".txt"
        while ((getline line < f) > 0) { n = split(line, p, / [|] /); res[i, p[1]] = p[n] }
      }
    }
    /^# / { fam = substr($0, 3); if (!(fam in seen)) { seen[fam] = 1; order[++nf] = fam } next }
    { sub(/#.*/, ""); gsub(/^[ \t]+|[ \t]+$/, "") }
    $0 == "" { next }
    { tot[fam]++; for (i = 1; i <= 3; i++) if (res[i, $0] == "pass") pass[fam, i]++ }
    END {
      for (k = 1; k <= nf; k++) { f = order[k]; if (tot[f] == 0) continue
        printf "| %s | %d | %d | %d | %d |\n", f, tot[f], pass[f, 1], pass[f, 2], pass[f, 3] }
    }' "$1"
}

cmd=${1:-}
case $cmd in
  fetch) fetch ;;
  run)
    [ $# -ge 2 ] || die "usage: scripts/piglit.sh run arenagl|llvmpipe|zink [LIST]"
    run_impl "$2" "${3:-$default_list}"
    awk -F' [|] ' '{printf "%-8s %s\n", $2, $1}' "$last_results"
    echo "piglit: $2: $(summary "$last_results")"
    ;;
  check) check "${2:-$default_list}" ;;
  compare) compare "${2:-$default_list}" ;;
  sample | check-sample)
    [ -n "${2:-}" ] && [ -n "${3:-}" ] || die "usage: scripts/piglit.sh $cmd SEED COUNT"
    fetch
    sample_list=$work/sample-$2-$3.txt
    python3 "$root_dir/tests/piglit/sample.py" "$piglit_dir" "$2" "$3" >"$sample_list.$$"
    mv "$sample_list.$$" "$sample_list"
    if [ "$cmd" = check-sample ]; then
      check "$sample_list"
      exit 0
    fi
    expected=""  # tests/piglit/expected.txt speaks of the project's own list, not of a sample
    PIGLIT_REPORT=${PIGLIT_REPORT:-$root_dir/docs/results/piglit-sample-$2-$3.md} compare "$sample_list"
    ;;
  report) report "${2:-$default_list}" "${3:-?}" ;;
  _one) one "$2" "$3" ;;
  *) die "usage: scripts/piglit.sh fetch | run arenagl|llvmpipe|zink [LIST] | check [LIST] | compare [LIST] | report [LIST [SECONDS]] | check-sample SEED COUNT | sample SEED COUNT" ;;
esac
