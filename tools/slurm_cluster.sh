#!/usr/bin/env bash
# A private one-node Slurm cluster on this machine, for testing tools/slurm_sweep.sh:
#
#   tools/slurm_cluster.sh start STATE_DIR [OWNER_PID]  # then: export SLURM_CONF=STATE_DIR/slurm.conf
#   tools/slurm_cluster.sh status STATE_DIR
#   tools/slurm_cluster.sh stop STATE_DIR
#
# `start` writes STATE_DIR/slurm.conf (node `localhost` with this machine's CPUs and memory, as
# `slurmd -C` reports them) and starts its own munged (own key and socket), slurmctld and slurmd,
# listening on 127.0.0.1 only, with every key, spool, log and pid file under STATE_DIR: the
# system's Slurm and munge setup (/etc/slurm, /etc/munge, /run/munge) is not used, and no systemd
# is needed. Ports come from this shell's pid (the first free pair from 20000 + 2 * (pid mod
# 15000)), so two clusters can run side by side. It waits until the node is idle. `stop` cancels
# the cluster's jobs and ends exactly the daemons whose pid files are in STATE_DIR (checking that
# each pid's command line names STATE_DIR); it is safe to call twice or after a failed start.
# With OWNER_PID, a watchdog runs `stop` when that process is gone, so even a SIGKILLed test (a
# CTest timeout) leaves no daemons behind.
#
# Packages: Debian's slurmctld, slurmd, slurm-client (= slurm-wlm) and munge. When one is missing
# and we are root, `start` installs it with apt-get (tools/setup.sh does not: only this test needs
# Slurm). Not root and missing: exit 77, the "cannot run here" code of the test that uses it.
# --help prints the comment above.
case ${1:-} in -h | --help) sed -n '2,/^[^#]/p' "$0" | sed '/^[^#]/d; /^#SBATCH/d; s/^# \{0,1\}//'; exit 0 ;; esac
set -euo pipefail
export PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH
usage="usage: slurm_cluster.sh start STATE_DIR [OWNER_PID] | status STATE_DIR | stop STATE_DIR"
action=${1:?$usage}
state=${2:?$usage}
packages=(slurmctld slurmd slurm-client munge)
say() { echo "slurm_cluster: $*" >&2; }

install_missing() {
  local missing=() p
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  ((${#missing[@]})) || return 0
  if [ "$(id -u)" -ne 0 ]; then
    say "cannot start: ${missing[*]} not installed and not root (apt-get install ${packages[*]})"
    exit 77
  fi
  say "installing ${missing[*]}"
  apt-get update -qq
  # RUNLEVEL=1 (read by `runlevel`) keeps sysvinit's invoke-rc.d from starting the system-wide
  # munged and slurm daemons: this script starts private ones.
  RUNLEVEL=1 DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
}

# True when something accepts connections on 127.0.0.1:$1.
port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# True while process $1 runs (a zombie, exited but not yet reaped, does not count).
alive() {
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  stat=${stat##*) }
  [ "${stat%% *}" != Z ]
}

# The pid in STATE_DIR/$1.pid when it is alive and its command line names STATE_DIR.
our_pid() {
  local pid
  pid=$(cat "$state/$1.pid" 2>/dev/null) || return 1
  [[ $pid =~ ^[0-9]+$ ]] && [ -r "/proc/$pid/cmdline" ] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$state/" || return 1
  echo "$pid"
}

stop() {
  local name pid
  if pid=$(our_pid watchdog) && [ "$pid" != $$ ]; then kill -TERM "$pid" 2>/dev/null || true; fi
  export SLURM_CONF=$state/slurm.conf
  if [ -f "$SLURM_CONF" ] && our_pid slurmctld >/dev/null; then
    # Jobs first: a batch job's slurmstepd outlives slurmd.
    local jobs
    jobs=$(squeue -h -o %A 2>/dev/null || true)
    if [ -n "$jobs" ]; then
      # shellcheck disable=SC2086
      scancel $jobs 2>/dev/null || true
      for _ in $(seq 50); do [ -z "$(squeue -h -o %A 2>/dev/null)" ] && break; sleep 0.2; done
    fi
  fi
  for name in slurmd slurmctld munged; do
    pid=$(our_pid "$name") || continue
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 50); do alive "$pid" || break; sleep 0.2; done
    if alive "$pid"; then
      say "$name ($pid) ignored SIGTERM for 10 s; killing it"
      kill -KILL "$pid" 2>/dev/null || true
    fi
  done
}

status() {
  local name pid rc=0
  for name in munged slurmctld slurmd; do
    if pid=$(our_pid "$name"); then echo "$name: running (pid $pid)"; else echo "$name: not running"; rc=1; fi
  done
  if ((rc == 0)); then SLURM_CONF=$state/slurm.conf sinfo; fi
  return $rc
}

fail_start() {
  say "start failed: $*"
  local f
  for f in munged slurmctld slurmd; do
    [ -s "$state/$f.log" ] && { echo "--- $state/$f.log (last lines)" >&2; tail -n 15 "$state/$f.log" >&2; }
  done
  stop
  exit 1
}

start() {
  install_missing
  mkdir -p "$state"
  state=$(cd "$state" && pwd)
  [ ! -e "$state/slurm.conf" ] || { say "$state already holds a cluster (stop it first)"; exit 1; }
  mkdir -p "$state/ctld" "$state/spool"
  chmod 700 "$state"
  # First, so that whatever starts below is stopped if the owner is killed meanwhile.
  if [ -n "$owner" ]; then
    # Detached (own session), so it outlives the owner; its command line names STATE_DIR.
    # shellcheck disable=SC2016  # $1..$3 are the inner shell's arguments
    setsid bash -c 'while kill -0 "$1" 2>/dev/null; do sleep 1; done; exec "$2" stop "$3"' \
      watchdog "$owner" "$(realpath "${BASH_SOURCE[0]}")" "$state/" </dev/null >/dev/null 2>&1 &
    echo $! >"$state/watchdog.pid"
  fi
  local user port node
  user=$(id -un)
  port=$((20000 + 2 * ($$ % 15000)))
  while port_busy "$port" || port_busy $((port + 1)); do port=$((port + 2)); done
  # This machine as slurmd sees it (CPUs, sockets, cores, threads, memory), named localhost.
  node=$(slurmd -C | head -n 1 | sed 's/^NodeName=[^ ]* //; s/ *UpTime=.*//')
  [[ $node == CPUs=* ]] || fail_start "unexpected 'slurmd -C' output: $node"

  # munge: its own key, socket, pid, log and seed files; slurm finds the socket through AuthInfo.
  head -c 1024 /dev/urandom >"$state/munge.key"
  chmod 400 "$state/munge.key"
  munged --force --socket="$state/munge.socket" --key-file="$state/munge.key" \
    --pid-file="$state/munged.pid" --log-file="$state/munged.log" \
    --seed-file="$state/munged.seed" || fail_start "munged did not start"

  : >"$state/plugstack.conf"
  cat >"$state/slurm.conf" <<EOF
# Written by tools/slurm_cluster.sh: a private one-node cluster, loopback only.
ClusterName=fbosim$$
SlurmctldHost=localhost
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$state/munge.socket
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
PlugStackConfig=$state/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
CommunicationParameters=NoCtldInAddrAny,NoInAddrAny
MpiDefault=none
MailProg=/bin/true
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
NodeName=localhost NodeAddr=127.0.0.1 $node State=UNKNOWN
PartitionName=main Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF=$state/slurm.conf
  slurmctld -f "$SLURM_CONF" || fail_start "slurmctld did not start"
  # slurmd sometimes exits right after starting on a busy machine (about 2 starts in 9 with
  # other builds running: it stops before registering): start it again, up to 3 times, with its
  # log's tail, so that a flaky start is not a failed test.
  local deadline=$((SECONDS + 30)) tries=1
  slurmd -f "$SLURM_CONF" -N localhost || fail_start "slurmd did not start"
  until [ "$(sinfo -h -n localhost -o %t 2>/dev/null)" = idle ]; do
    ((SECONDS < deadline)) || fail_start "node localhost not idle after 30 s: $(sinfo -h -o '%t %E' 2>&1)"
    our_pid slurmctld >/dev/null || fail_start "slurmctld exited"
    if ! our_pid slurmd >/dev/null; then
      ((tries < 3)) || fail_start "slurmd exited $tries times: $(tail -n 3 "$state/slurmd.log" 2>&1)"
      say "slurmd exited (try $tries; its log: $(tail -n 1 "$state/slurmd.log" 2>&1)); starting it again"
      tries=$((tries + 1))
      sleep 0.5
      slurmd -f "$SLURM_CONF" -N localhost || fail_start "slurmd did not start"
    fi
    sleep 0.2
  done
  say "up: $(sinfo -h -o '%D node(s), %c CPU(s), %t') on ports $port-$((port + 1)); state in $state"
  echo "export SLURM_CONF=$SLURM_CONF"
}

case $action in
  start)
    owner=${3:-}
    [ -z "$owner" ] || kill -0 "$owner" || { say "owner pid $owner is not running"; exit 2; }
    start ;;
  stop) if [ -d "$state" ]; then state=$(cd "$state" && pwd); stop; fi ;;
  status) state=$(cd "$state" && pwd) && status ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
