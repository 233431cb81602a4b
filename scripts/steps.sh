# Timed steps, in turn or at once, for scripts/test and .ci/run (sourced, not run):
#
#   step NAME COMMAND...    run COMMAND here; prints "step NAME: N s (cpu M s)" to stderr when it
#                           passes (cpu: user + system time of COMMAND and what it waited for)
#   start NAME COMMAND...   run COMMAND in the background, its output into $steps_logs/NAME.log;
#                           waits first while $steps_jobs steps are running
#   finish                  wait for every started step; for each failure prints
#                           "step NAME: FAILED (exit N)" then its whole log; returns 1 when any failed
#
# A started step's output stays in its log until it ends, so steps running at once never mix
# their lines; a step that fails has its log printed whole, under its name.
steps_logs=${STEPS_LOGS:-.build/steps}
steps_jobs=${STEPS_JOBS:-2}
steps_started=()

steps_ticks=$(getconf CLK_TCK)
# Prints nothing; sets steps_cpu_now to the user + system seconds of this shell's finished
# children so far (cutime + cstime of /proc/PID/stat, read without a subshell).
steps_cpu() {
    local fields
    read -r -a fields <"/proc/$BASHPID/stat"
    steps_cpu_now=$(((fields[15] + fields[16]) / steps_ticks))
}

step() {
    local name=$1 start=$SECONDS cpu status=0
    shift
    steps_cpu
    cpu=$steps_cpu_now
    # Not `set -e`'s exit: it is off inside a function called as `step ... || ...`.
    "$@" || status=$?
    steps_cpu
    if [ "$status" -ne 0 ]; then
        echo "step $name: FAILED (exit $status) after $((SECONDS - start)) s" >&2
        return "$status"
    fi
    echo "step $name: $((SECONDS - start)) s (cpu $((steps_cpu_now - cpu)) s)" >&2
}

start() {
    local name=$1
    shift
    while [ "$(jobs -pr | wc -l)" -ge "$steps_jobs" ]; do wait -n || true; done
    mkdir -p "$steps_logs"
    rm -f "$steps_logs/$name.status"
    (
        begun=$SECONDS
        "$@" >"$steps_logs/$name.log" 2>&1 </dev/null && status=0 || status=$?
        echo "$status $((SECONDS - begun))" >"$steps_logs/$name.status"
        steps_cpu
        if [ "$status" -eq 0 ]; then
            echo "step $name: $((SECONDS - begun)) s (cpu $steps_cpu_now s)" >&2
        else
            echo "step $name: FAILED (exit $status) after $((SECONDS - begun)) s; log: $steps_logs/$name.log" >&2
        fi
    ) &
    steps_started+=("$name")
}

finish() {
    wait
    local name status seconds failed=()
    for name in "${steps_started[@]}"; do
        read -r status seconds <"$steps_logs/$name.status" || status="?"
        if [ "$status" != 0 ]; then
            failed+=("$name")
            echo "" >&2
            echo "step $name: FAILED (exit $status); its output ($steps_logs/$name.log):" >&2
            cat "$steps_logs/$name.log" >&2
            echo "step $name: end of output" >&2
        fi
    done
    steps_started=()
    if [ "${#failed[@]}" -gt 0 ]; then
        echo "failed: ${failed[*]}" >&2
        return 1
    fi
}
