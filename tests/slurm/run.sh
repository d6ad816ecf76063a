#!/bin/sh
# The Slurm job array of docs/batch.md, run for real on a one-node Slurm cluster started
# here (tests/slurm/cluster.sh): the script is taken from the page itself, its ten tasks
# (`chromatype batch ... --shard K/10`) must give the same files, byte for byte, as one
# batch on one machine.  Then the same script on two shards, one task killed with SIGKILL
# in the middle of its records and requeued: --resume finishes it, skipping what it had
# written, with the same files and nothing half-written left.  The daemons are stopped on
# exit, whatever happens.  `make test-slurm` runs it (root, and the Debian packages
# slurm-wlm and munge: scripts/install-deps.sh slurm).
B=${CT_BUILD:-build}
CT="$(cd "$(dirname "$B/chromatype")" && pwd)/chromatype"
HERE=$(cd "$(dirname "$0")" && pwd)
DOC="$HERE/../../docs/batch.md"
FONT="$HERE/../fonts/bungee-spice-latin.woff2"
SUITE=slurm
. "$HERE/../cli/lib.sh"
. "$HERE/cluster.sh"

missing=
for c in munged slurmctld slurmd sbatch scontrol; do command -v $c >/dev/null 2>&1 || missing="$missing $c"; done
if [ -n "$missing" ]; then
  echo "slurm: skipped: no Slurm here (missing$missing; scripts/install-deps.sh slurm installs slurm-wlm and munge as root)"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "slurm: skipped: slurmd must run as root to run jobs (run make test-slurm as root)"
  exit 0
fi
[ -x "$CT" ] || { echo "slurm: $CT is not built"; exit 1; }

T=$(mktemp -d)
chmod 711 "$T"   # munged's socket is in there (others may reach it, not list the directory)
trap 'cluster_stop; rm -rf "$T"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
PATH="$(dirname "$CT"):$PATH"   # the job script calls `chromatype`
export PATH

# The job script of the page: the sh block after "**Slurm**"
awk '/^\*\*Slurm\*\*/ { s = 1; next } s == 1 && /^```sh/ { s = 2; next } s == 2 && /^```/ { exit } s == 2' "$DOC" > "$T/badges.sh"
grep -q '^#SBATCH --array=0-9$' "$T/badges.sh" && grep -q -- '--shard "$((SLURM_ARRAY_TASK_ID + 1))/10"' "$T/badges.sh" &&
  grep -q -- '--resume' "$T/badges.sh" && ok || { bad "docs/batch.md: no Slurm job script of ten shards with --resume found: $(cat "$T/badges.sh")"; finish; }

# the badges and their people: 400 records, one file each
mkdir "$T/cluster" "$T/one"
cat > "$T/one/badge.xml" <<EOF
<document size="86mm x 54mm" margin="4mm" title="{name}">
<style name="default" font="$FONT" size="16pt"/>
<page><frame><p>{name}</p><p size="9pt">badge {id}</p></frame></page></document>
EOF
{
  echo "id,name"
  i=1
  while [ $i -le 400 ]; do echo "$i,Guest $i"; i=$((i + 1)); done
} > "$T/one/people.csv"
for d in array killed; do mkdir "$T/$d" && cp "$T/one/badge.xml" "$T/one/people.csv" "$T/$d/"; done
# the reference: one batch on one machine
(cd "$T/one" && "$CT" batch badge.xml --data people.csv -o 'out/{id}.pdf' --jobs 2 -q 2>/dev/null)
[ "$(ls "$T/one/out" | wc -l)" -eq 400 ] || { bad "the one-machine batch wrote $(ls "$T/one/out" | wc -l) files, not 400"; finish; }

# same(DIR): DIR/out holds the reference's files, byte for byte, and nothing else
same() {
  (cd "$T/one/out" && ls) > "$T/want"
  (cd "$1/out" && ls) > "$T/got"
  if ! cmp -s "$T/want" "$T/got"; then
    bad "$1/out: not the same file names as one batch: $(diff "$T/want" "$T/got" | head -5 | tr '\n' ' ')"
    return
  fi
  for f in "$T"/one/out/*.pdf; do
    cmp -s "$f" "$1/out/${f##*/}" || { bad "$1/out/${f##*/} differs from one batch's"; return; }
  done
  ok
}

t0=$(date +%s)
if ! cluster_start "$T/cluster" > "$T/start.txt" 2>&1; then
  bad "the cluster did not start: $(cat "$T/start.txt")"
  cluster_logs
  finish
fi
echo "slurm: a one-node cluster ($(sinfo -h -o '%c CPUs, Slurm') $(sinfo -V | cut -d' ' -f2)) up in $(($(date +%s) - t0)) s"

t1=$(date +%s)
# 1. The page's job array as it is; only --cpus-per-task is lowered to 1, so that its ten
# tasks fit on this machine's CPUs (Slurm refuses tasks wider than a node)
out=$(sbatch --wait --cpus-per-task=1 --chdir="$T/array" --output="$T/array/task-%a.log" "$T/badges.sh" 2>&1)
rc=$?
[ $rc -eq 0 ] && ok || { bad "sbatch --wait exited with $rc: $out"; cat "$T"/array/task-*.log 2>/dev/null | head -20; cluster_logs; }
n=0
for i in 0 1 2 3 4 5 6 7 8 9; do
  grep -q "batch: 40 done, 0 failed, 0 skipped of 40 .*one shard" "$T/array/task-$i.log" 2>/dev/null && n=$((n + 1)) ||
    bad "array task $i did not render its 40 records: $(cat "$T/array/task-$i.log" 2>&1)"
done
[ $n -eq 10 ] && ok
same "$T/array"
echo "slurm: the array of ten tasks took $(($(date +%s) - t1)) s"

# 2. Two shards of the same script; the second task (the even records) is killed in the
# middle of its 200 records, then requeued: --resume renders only the rest
sed -e 's/^#SBATCH --array=0-9$/#SBATCH --array=0-1/' -e 's|/10"$|/2"|' "$T/badges.sh" > "$T/badges2.sh"
grep -q -- '--shard "$((SLURM_ARRAY_TASK_ID + 1))/2"' "$T/badges2.sh" && ok || bad "the two-shard script: $(cat "$T/badges2.sh")"
job=$(sbatch --parsable --cpus-per-task=1 --chdir="$T/killed" --output="$T/killed/task-%a.log" --open-mode=append "$T/badges2.sh")
evens() { ls "$T/killed/out" 2>/dev/null | grep -c '^[0-9]*[02468]\.pdf$'; }
i=0
while [ "$(evens)" -lt 3 ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
scancel --signal=KILL --full "${job}_1" || bad "scancel --signal=KILL ${job}_1 failed"
state() { scontrol show job "${job}_1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -1; }
i=0
while case $(state) in RUNNING|COMPLETING|CONFIGURING|PENDING) true ;; *) false ;; esac && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
st=$(state)
case $st in CANCELLED|FAILED) ok ;; *) bad "task 1 after SIGKILL: state $st (CANCELLED or FAILED expected)" ;; esac
kept=$(evens)
temps=$(ls "$T/killed/out" | grep -c '^[0-9]*[02468]\.pdf\.tmp-')   # task 0 may still be writing its own
[ "$kept" -ge 3 ] && [ "$kept" -lt 200 ] && ok || bad "task 1 was not killed in the middle of its 200 records: $kept written"
echo "slurm: task 1 killed after $kept of its 200 records, leaving $temps temporary file(s)"
scontrol requeue "${job}_1" || bad "scontrol requeue ${job}_1 failed"
i=0
while [ -n "$(squeue -h -j "$job" 2>/dev/null)" ] && [ $i -lt 900 ]; do sleep 0.2; i=$((i + 1)); done
[ -z "$(squeue -h -j "$job")" ] || bad "the requeued task did not finish in 3 minutes: $(squeue -j "$job")"
[ "$(state)" = COMPLETED ] && ok || bad "the requeued task 1: state $(state)"
grep -q "batch: $((200 - kept)) done, 0 failed, $kept skipped of 200" "$T/killed/task-1.log" && ok ||
  bad "the requeued task did not resume after its $kept records: $(cat "$T/killed/task-1.log")"
if [ "$temps" -gt 0 ]; then
  grep -q "batch: removed $temps temporary files\{0,1\} that a killed run left" "$T/killed/task-1.log" && ok ||
    bad "the requeued task did not say it removed the $temps temporary files: $(cat "$T/killed/task-1.log")"
fi
grep -q "batch: 200 done, 0 failed, 0 skipped of 200" "$T/killed/task-0.log" && ok || bad "task 0: $(cat "$T/killed/task-0.log")"
ls "$T/killed/out" | grep -q '\.tmp-' && bad "temporary files left: $(ls "$T/killed/out" | grep '\.tmp-')" || ok
same "$T/killed"

cluster_stop
left=$(cluster_left "$T/cluster")
[ -z "$left" ] && ok || bad "still running after the cluster stopped: $(ps -o pid=,args= -p "$(echo $left | tr ' ' ,)")"
echo "slurm: $(($(date +%s) - t0)) s with the cluster"
finish
