# Sourced by .ci/run: installs redis-server with the system package manager when missing, starts
# one on a free loopback port with no persistence (no RDB snapshots, no AOF, nothing on disk), and
# exports REDIS_TEST_URL for the suites that prove rate limits, sessions and WebSocket rooms across
# processes (packages/core/test/store-redis.test.ts, packages/core/test/websocket-redis.test.ts,
# examples/cluster/cluster-store.test.ts, examples/chat/main.test.ts). Returns
# non-zero (and prints why) when it cannot; those suites then skip with a printed reason.
# stop_redis ends the server this started (its pid is in REDIS_TEST_PID).

start_redis() {
  local sudo="" port dir
  [ "$(id -u)" = "0" ] || sudo="sudo -n"
  if ! command -v redis-server >/dev/null; then
    command -v apt-get >/dev/null || { echo "no apt-get to install redis-server with"; return 1; }
    $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq redis-server >/dev/null || return 1
  fi
  # A port nobody listens on: the kernel picks one, the probe socket closes, redis takes it.
  port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})") || return 1
  dir=$(mktemp -d) || return 1
  redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$dir" \
    --daemonize yes --pidfile "$dir/redis.pid" --logfile "$dir/redis.log" || return 1
  for _ in $(seq 1 50); do
    redis-cli -p "$port" ping 2>/dev/null | grep -q PONG && break
    sleep 0.1
  done
  redis-cli -p "$port" ping 2>/dev/null | grep -q PONG || { echo "redis-server did not answer on port $port"; cat "$dir/redis.log"; return 1; }
  export REDIS_TEST_URL="redis://127.0.0.1:$port"
  export REDIS_TEST_PID
  REDIS_TEST_PID=$(cat "$dir/redis.pid")
  echo "== redis-server $(redis-server --version | grep -o 'v=[0-9.]*') running on port $port; REDIS_TEST_URL set"
}

stop_redis() {
  [ -n "${REDIS_TEST_PID:-}" ] && kill "$REDIS_TEST_PID" 2>/dev/null || true
}
