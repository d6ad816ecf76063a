# cluster.sh: a one-node Slurm cluster on this machine, for tests (sourced).  Everything it
# makes lives in one directory: the munge key, munged's socket, slurm.conf, the state and
# spool directories, the daemons' pid and log files.  Nothing of the host's Slurm or munge
# (/etc/slurm, /etc/munge, /run/munge) is read or touched, and clients find the cluster
# through SLURM_CONF.
#   cluster_start DIR   start munged, slurmctld and slurmd; wait until the node is idle;
#                       export SLURM_CONF.  Returns non-zero (and says why) on failure
#   cluster_stop        cancel the jobs, stop the daemons it started (by their pids) and
#                       any job process left behind; safe to call twice
#   cluster_logs        the daemons' logs, for a failure's report
#   cluster_left DIR    the pids of what is still running of the cluster once in DIR
# Needs root (slurmd runs jobs as their user) and the Debian packages slurm-wlm and munge.

cluster_dir= cluster_daemons=

# Is TCP port $1 listened on (here, in any address family)?
port_busy() {
  hex=$(printf '%04X' "$1")
  cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk -v p=":$hex" '$4 == "0A" && substr($2, length($2) - 4) == p { f = 1 } END { exit !f }'
}

# Two free ports next to each other, from a range that depends on the pid (parallel runs
# of the test on one machine pick different ones).
free_ports() {
  p=$((20000 + ($$ % 400) * 100))
  while port_busy "$p" || port_busy $((p + 1)); do p=$((p + 2)); done
  echo "$p"
}

# Adds the daemon of pid file $1 to those to stop: a daemon writes it after its start
# command returns, so it is waited for
started() {
  i=0
  while [ ! -s "$1" ]; do
    i=$((i + 1))
    [ $i -gt 100 ] && { echo "no ${1##*/} after 20 s"; return 1; }
    sleep 0.2
  done
  cluster_daemons="$cluster_daemons $(cat "$1")"
}

cluster_start() {
  cluster_dir=$1
  d=$cluster_dir
  host=$(hostname -s)
  # munged refuses a socket in a directory that others cannot search (DIR and the ones
  # above it), and a key that others can read
  chmod 711 "$d"
  mkdir -p "$d/state" "$d/spool"
  dd if=/dev/urandom of="$d/munge.key" bs=1024 count=1 2>/dev/null && chmod 400 "$d/munge.key" || return 1
  # munged is started first: if a later step fails, cluster_stop still knows it
  munged --socket="$d/munge.sock" --key-file="$d/munge.key" --pid-file="$d/munged.pid" \
    --log-file="$d/munged.log" --seed-file="$d/munged.seed" || { echo "munged did not start: $(tail -1 "$d/munged.log")"; return 1; }
  started "$d/munged.pid" || return 1
  port=$(free_ports)
  cat > "$d/slurm.conf" <<EOF
ClusterName=chromatype
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=$(id -un)
AuthType=auth/munge
# (cred_expire: a requeued job waits this long before it may start again, 120 s by default)
AuthInfo=socket=$d/munge.sock,cred_expire=10
CredType=cred/munge
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
# a finished job's record is kept 10 s (tests read its state), and sbatch --wait, whose
# polls grow to 32 s apart when it is longer, looks every 8 s
MinJobAge=10
# the backfill scheduler every second, not 30: it starts a requeued job once eligible
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=1
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF="$d/slurm.conf"
  slurmctld || { echo "slurmctld did not start"; return 1; }
  started "$d/slurmctld.pid" || return 1
  slurmd || { echo "slurmd did not start"; return 1; }
  started "$d/slurmd.pid" || return 1
  i=0
  while [ "$(sinfo -h -o %T 2>/dev/null)" != idle ]; do
    i=$((i + 1))
    [ $i -gt 150 ] && { echo "the node is not idle after 30 s: $(sinfo -h -o '%T %E' 2>&1)"; return 1; }
    sleep 0.2
  done
}

alive() {   # is process $1 running (a zombie is not)?
  [ -r "/proc/$1/stat" ] && ! sed 's/.*) //' "/proc/$1/stat" | grep -q '^Z'
}

# the processes of the jobs and steps of the cluster once in $1: they carry its SLURM_CONF
# in their environment, and a job's also SLURM_JOB_ID (the test itself has none)
job_pids() {
  for e in /proc/[0-9]*/environ; do
    { tr '\0' '\n' < "$e"; } 2>/dev/null | grep -qx "SLURM_CONF=$1/slurm.conf" || continue
    pid=${e#/proc/}; pid=${pid%/environ}
    if grep -qx slurmstepd "/proc/$pid/comm" 2>/dev/null ||
       { tr '\0' '\n' < "$e"; } 2>/dev/null | grep -q '^SLURM_JOB_ID='; then
      echo "$pid"
    fi
  done
}

stop_pid() {   # TERM, then KILL after 10 s, process $1
  kill "$1" 2>/dev/null || return 0
  i=0
  while alive "$1" && [ $i -lt 50 ]; do sleep 0.2; i=$((i + 1)); done
  alive "$1" && kill -9 "$1" 2>/dev/null
}

cluster_stop() {
  [ -n "$cluster_dir" ] || return 0
  if [ -n "$cluster_daemons" ]; then
    scancel --quiet --user="$(id -un)" 2>/dev/null
    i=0
    while [ -n "$(squeue -h 2>/dev/null)" ] && [ $i -lt 25 ]; do sleep 0.2; i=$((i + 1)); done
  fi
  # slurmd, slurmctld, then munged, which they need until they stop
  for pid in $(echo "$cluster_daemons" | awk '{ for (i = NF; i > 0; i--) print $i }'); do stop_pid "$pid"; done
  for pid in $(job_pids "$cluster_dir"); do kill -9 "$pid" 2>/dev/null; done
  cluster_stopped="$cluster_daemons"
  cluster_dir= cluster_daemons=
}

# what is still running of the cluster once in $1 (whose daemons were $cluster_stopped)
cluster_left() {
  for pid in $cluster_stopped; do alive "$pid" && echo "$pid"; done
  job_pids "$1"
}

cluster_logs() {
  for f in slurmctld.log slurmd.log munged.log; do
    [ -f "$cluster_dir/$f" ] && { echo "--- $f (last lines)"; tail -n 15 "$cluster_dir/$f"; }
  done
}
