#!/usr/bin/env bash
# The image and compose.yaml tested for real with podman, with no registry: the base images are stood
# in for by images made from Debian's packages (docs/development.md, "The container test").
# Usage: scripts/container-test.sh [bases]   (bases: only make sure the stand-in base images exist)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

CACHE_DIR=${CONTAINER_CACHE_DIR:-/var/cache/messaging-gateway/containers}
BASES_TAR=$CACHE_DIR/bases.tar
IMAGE=localhost/messaging-gateway:test
PROJECT=mgwct$$
STARTED=$SECONDS
EMAIL=admin@example.com
PASSWORD=change-me-please

log() { printf '[container-test %3ds] %s\n' $((SECONDS - STARTED)) "$*"; }
fail() { log "FAILED: $*"; exit 1; }

# --- podman's settings, in a file of its own (the machine's /etc/containers is left alone) ---------
# The ulimits within the runtime's hard limits, runc (crun refuses hybrid cgroups), and the host's CA
# bundle mounted into every container for a TLS-intercepting proxy, never baked into an image.
mkdir -p "$CACHE_DIR"
export CONTAINERS_CONF=$CACHE_DIR/containers.conf
nofile=$(ulimit -Hn); nproc=$(ulimit -Hu)
[ "$nofile" = unlimited ] && nofile=1048576
[ "$nproc" = unlimited ] && nproc=32768
[ "$nofile" -gt 65536 ] && nofile=65536
[ "$nproc" -gt 32768 ] && nproc=32768
CA=/etc/ssl/certs/ca-certificates.crt
{
  echo '[containers]'
  echo "default_ulimits = [\"nofile=$nofile:$nofile\", \"nproc=$nproc:$nproc\"]"
  [ -f "$CA" ] && echo "volumes = [\"$CA:$CA:ro\"]"
  echo '[engine]'
  echo 'runtime = "runc"'
  echo 'cgroup_manager = "cgroupfs"'
} > "$CONTAINERS_CONF"
export BUILDAH_FORMAT=docker # keeps HEALTHCHECK (the OCI format has no field for it)

for tool in podman podman-compose curl node; do
  command -v "$tool" >/dev/null || fail "$tool is not installed (apt-get install podman buildah debootstrap runc podman-compose)"
done

# --- the stand-in base images ---------------------------------------------------------------------
BASES=(docker.io/library/node:20-bookworm-slim docker.io/library/postgres:15 docker.io/library/redis:7)

bases_present() {
  local image
  for image in "${BASES[@]}"; do podman image exists "$image" || return 1; done
}

debian_mirror() {
  local uri
  uri=$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' | grep -v security | head -n1 || true)
  [ -n "$uri" ] || uri=$(grep -hs '^deb ' /etc/apt/sources.list | awk '{print $2}' | grep -v security | head -n1 || true)
  echo "${uri:-http://deb.debian.org/debian}"
}

make_bases() {
  command -v debootstrap >/dev/null || fail "debootstrap is not installed"
  local work mirror
  work=$(mktemp -d /var/tmp/mgw-bases.XXXXXX)
  mirror=$(debian_mirror)
  log "debootstrap bookworm from $mirror"
  debootstrap --variant=minbase bookworm "$work/rootfs" "$mirror" > "$work/debootstrap.log" 2>&1 \
    || { tail -n 20 "$work/debootstrap.log"; fail "debootstrap"; }
  rm -rf "$work"/rootfs/var/cache/apt/archives/*.deb "$work"/rootfs/var/lib/apt/lists/*
  tar -C "$work/rootfs" -c . | podman import -q - localhost/mgw-stand-in/debian:bookworm >/dev/null
  rm -rf "$work/rootfs"

  # Node 20: Debian's is 18, so the machine's own node and npm (the official image's layout and user).
  log "stand-in node:20-bookworm-slim"
  mkdir -p "$work/node"
  cp "$(command -v node)" "$work/node/node"
  cp -a "$(dirname "$(readlink -f "$(command -v npm)")")/.." "$work/node/npm"
  cat > "$work/node/Containerfile" <<'EOF'
FROM localhost/mgw-stand-in/debian:bookworm
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node
# The bundle the test mounts into every container (outbound TLS may pass a proxy with its own CA).
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
CMD ["node"]
EOF
  podman build -q --pull=never -t docker.io/library/node:20-bookworm-slim "$work/node" >/dev/null

  # PostgreSQL 15 and Redis 7 from Debian, honouring what compose.yaml uses of the official images:
  # POSTGRES_USER/PASSWORD/DB and their data folders, pg_isready and redis-cli for the health checks.
  log "stand-in postgres:15 and redis:7"
  mkdir -p "$work/postgres" "$work/redis"
  cat > "$work/postgres/entrypoint.sh" <<'EOF'
#!/bin/sh
set -e
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}"
  user=${POSTGRES_USER:-postgres}
  printf '%s\n' "$POSTGRES_PASSWORD" > /tmp/pw && chown postgres /tmp/pw
  as_postgres initdb -D "$PGDATA" --username="$user" --pwfile=/tmp/pw --auth-host=scram-sha-256 --auth-local=trust >/dev/null
  rm -f /tmp/pw
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  echo "listen_addresses = '*'" >> "$PGDATA/postgresql.auto.conf"
  db=${POSTGRES_DB:-$user}
  if [ "$db" != postgres ]; then
    as_postgres postgres --single -D "$PGDATA" postgres <<SQL >/dev/null
CREATE DATABASE "$db" OWNER "$user";
SQL
  fi
fi
exec setpriv --reuid=postgres --regid=postgres --init-groups postgres -D "$PGDATA"
EOF
  cat > "$work/postgres/Containerfile" <<'EOF'
FROM localhost/mgw-stand-in/debian:bookworm
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql-15 >/dev/null \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /var/lib/postgresql/data /run/postgresql \
 && chown postgres:postgres /var/lib/postgresql/data /run/postgresql && chmod 700 /var/lib/postgresql/data
COPY entrypoint.sh /usr/local/bin/entrypoint.sh
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
VOLUME /var/lib/postgresql/data
STOPSIGNAL SIGINT
ENTRYPOINT ["sh", "/usr/local/bin/entrypoint.sh"]
EOF
  cat > "$work/redis/Containerfile" <<'EOF'
FROM localhost/mgw-stand-in/debian:bookworm
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server >/dev/null \
 && rm -rf /var/lib/apt/lists/* && mkdir -p /data && chown redis:redis /data
WORKDIR /data
VOLUME /data
CMD ["setpriv", "--reuid=redis", "--regid=redis", "--init-groups", "redis-server", "--protected-mode", "no", "--dir", "/data"]
EOF
  podman build -q --pull=never -t docker.io/library/postgres:15 "$work/postgres" >/dev/null &
  local pg=$!
  podman build -q --pull=never -t docker.io/library/redis:7 "$work/redis" >/dev/null || fail "redis stand-in"
  wait "$pg" || fail "postgres stand-in"
  rm -rf "$work"
  log "saving the stand-ins to $BASES_TAR"
  podman save -q -m -o "$BASES_TAR.tmp" "${BASES[@]}" && mv "$BASES_TAR.tmp" "$BASES_TAR"
}

ensure_bases() {
  if bases_present; then log "stand-in base images present"; return; fi
  if [ -s "$BASES_TAR" ]; then
    log "loading the stand-in base images from $BASES_TAR"
    podman load -q -i "$BASES_TAR" >/dev/null && bases_present && return
    log "the cache did not hold them all; making them again"
  fi
  make_bases
}

ensure_bases
[ "${1:-}" = bases ] && { log "done"; exit 0; }

# --- build ------------------------------------------------------------------------------------------
# npm ci inside the build reaches the registry as the host does (podman passes the proxy variables on);
# the host's npm cache is lent to the build's RUN steps, never part of a layer.
NPM_CACHE=$(npm config get cache 2>/dev/null || echo "$HOME/.npm")
REGISTRY=$(npm config get registry 2>/dev/null || true)
build_args=()
[ -n "$REGISTRY" ] && [ "$REGISTRY" != https://registry.npmjs.org/ ] && build_args+=(--build-arg "npm_config_registry=$REGISTRY")
mkdir -p "$NPM_CACHE"
log "building the image"
build() {
  podman build -q --pull=never --layers -f Containerfile -v "$NPM_CACHE:/root/.npm" "${build_args[@]}" "$@" . > /tmp/$PROJECT-build.log 2>&1 \
    || { tail -n 40 /tmp/$PROJECT-build.log; fail "podman build"; }
}
# The build stage gets a tag of its own, so that pruning what earlier runs left keeps the layers this
# build can reuse next time (the installed dependencies, while the lockfile stays the same).
build --target build -t localhost/messaging-gateway:build-stage
build -t "$IMAGE"
rm -f /tmp/$PROJECT-build.log
podman tag "$IMAGE" localhost/messaging-gateway:latest
podman image prune -f >/dev/null 2>&1 || true

# --- helpers ----------------------------------------------------------------------------------------
free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
GATEWAY_PORT=$(free_port)
GATEWAY_2_PORT=$(free_port)
SOLO_PORT=$(free_port)
B=http://127.0.0.1:$GATEWAY_PORT
export GATEWAY_PORT GATEWAY_2_PORT GATEWAY_ADMIN_EMAIL=$EMAIL GATEWAY_ADMIN_PASSWORD=$PASSWORD
COOKIES=$(mktemp)
COMPOSE_LOG=$(mktemp)
compose() { podman-compose -p "$PROJECT" -f "$ROOT/compose.yaml" "$@" >>"$COMPOSE_LOG" 2>&1 || { tail -n 20 "$COMPOSE_LOG"; return 1; }; }
# gateway_container [SERVICE]: the name podman-compose gave the service's container.
gateway_container() { podman ps -a --filter "label=io.podman.compose.project=$PROJECT" --format '{{.Names}}' | grep -E "[-_]${1:-gateway}[-_]1\$" | head -n1; }

cleanup() {
  local status=$?
  if [ "$status" != 0 ]; then
    local gw; gw=$(gateway_container || true)
    [ -n "$gw" ] && { log "the gateway's last log lines:"; podman logs --tail 40 "$gw" 2>&1 || true; }
  fi
  compose down -t 30 -v || true
  podman volume ls -q --filter "label=io.podman.compose.project=$PROJECT" | xargs -r podman volume rm -f >/dev/null 2>&1 || true
  podman rm -f -t 5 "$PROJECT-solo" >/dev/null 2>&1 || true
  podman volume rm -f "$PROJECT-solo-data" >/dev/null 2>&1 || true
  rm -f "$COOKIES" "$COMPOSE_LOG"
  log "$([ "$status" = 0 ] && echo passed || echo failed) in $((SECONDS - STARTED)) s"
}
trap cleanup EXIT
trap "exit 143" TERM INT

# api METHOD PATH [BODY [curl options…]]: sets STATUS and BODY.
api() {
  local method=$1 path=$2 data=${3:-}; shift $(( $# < 3 ? $# : 3 ))
  local out
  out=$(curl -s -m 15 -X "$method" -b "$COOKIES" -c "$COOKIES" -H 'content-type: application/json' \
    ${data:+--data "$data"} -w '\n%{http_code}' "$@" "$B$path") || { STATUS=000; BODY=''; return 0; }
  STATUS=${out##*$'\n'}; BODY=${out%$'\n'*}
}
expect() { [ "$STATUS" = "$1" ] || fail "$2: HTTP $STATUS $BODY"; }
field() {
  node -e 'let v; try { v = process.argv[1].split(".").reduce((o, k) => o?.[k], JSON.parse(process.argv[2])) } catch {}
    process.stdout.write(v === undefined || v === null ? "" : typeof v === "object" ? JSON.stringify(v) : String(v))' "$1" "$BODY"
}
# until SECONDS DESCRIPTION COMMAND…: polls until the command succeeds or the deadline passes.
until_ok() {
  local limit=$1 deadline=$((SECONDS + $1)) what=$2; shift 2
  STATUS=; BODY=
  until "$@"; do [ "$SECONDS" -lt "$deadline" ] || fail "$what: not within $limit s (last answer: HTTP $STATUS $BODY)"; sleep 0.5; done
}
ready() { api GET /readyz; [ "$STATUS" = 200 ] && [ "$(field data.status)" = ready ]; }
connected() { api GET "/v1/chat/instances/$ID" '' -H "Authorization: Bearer $KEY"; [ "$(field data.status)" = connected ]; }
# stop_cleanly: SIGTERM through podman stop; the gateway must exit 0 after logging its shutdown.
stop_cleanly() {
  local gw=$1 code
  # (podman without systemd complains on stderr that it has no health check timer to remove.)
  podman stop -t 30 "$gw" >/dev/null 2>&1 || fail "podman stop $gw"
  code=$(podman inspect --format '{{.State.ExitCode}}' "$gw")
  [ "$code" = 0 ] || fail "$gw exited with $code after SIGTERM"
  podman logs "$gw" 2>&1 | grep -q '"signal":"SIGTERM".*"msg":"shutting down"' || fail "$gw logged no shutdown"
  ! podman logs "$gw" 2>&1 | grep -q 'shutdown did not finish\|shutdown failed' || fail "$gw's shutdown was not clean"
}

# --- the image alone: embedded database on its volume, as the image's user (runs beside the rest) ----
# (podman without systemd says it cannot schedule the health checks: `podman healthcheck run` still runs them.)
podman run -d --name "$PROJECT-solo" -v "$PROJECT-solo-data:/data" -p "127.0.0.1:$SOLO_PORT:3000" "$IMAGE" >/dev/null 2>&1 \
  || fail "podman run of the image alone"

# --- compose up and the README's tour -----------------------------------------------------------------
log "compose up (gateway, postgres, redis) on port $GATEWAY_PORT"
# Named: podman-compose before 1.0.6 knows no profiles and would start every service.
compose up -d gateway || fail "podman-compose up"
GW=$(gateway_container)
[ -n "$GW" ] || fail "no gateway container"
# podman-compose does not wait for depends_on health: the gateway's restart policy covers a database still starting.
until_ok 120 "the gateway ready on $B/readyz" ready
[ "$(podman exec "$GW" id -u)" != 0 ] || fail "the gateway runs as root"
podman healthcheck run "$GW" >/dev/null || fail "the image's HEALTHCHECK"
log "ready; the tour"

api POST /auth/sessions "{\"email\":\"$EMAIL\",\"password\":\"$PASSWORD\"}"; expect 200 "sign in"
api POST /api-keys '{"name":"try","testMode":true}'; expect 201 "create a key"
KEY=$(field data.key)
api POST /v1/chat/instances '{"name":"Sales line"}' -H "Authorization: Bearer $KEY"; expect 201 "create an instance"
ID=$(field data.id)
api GET "/v1/chat/instances/$ID/qr" '' -H "Authorization: Bearer $KEY"; expect 200 "the QR code"
CODE=$(printf '%s' "$BODY" | podman exec -i "$GW" node dist/cli.js qr:decode) || fail "qr:decode in the image"
api POST /sandbox/scan "{\"code\":\"$CODE\",\"phone\":\"+55 11 99999-0001\"}"; expect 200 "the phone scans"
until_ok 30 "the instance connected" connected

api POST /v1/messages/send '{"to":"5511988887777","text":"Your order shipped"}' -H "X-API-Key: $KEY"; expect 200 "send"
MSG=$(field data.id)
phone_has() { api GET /sandbox/phones/5511988887777/messages; printf '%s' "$BODY" | grep -q "$1"; }
until_ok 30 "the phone receives the message" phone_has '\[TEST\] Your order shipped'
api POST /sandbox/phones/5511988887777/read "{\"messageId\":\"$MSG\"}"; expect 200 "the phone reads it"
is_read() { api GET "/v1/messages/status/$MSG" '' -H "Authorization: Bearer $KEY"; [ "$(field data.status)" = read ]; }
until_ok 30 "the status read" is_read
api POST /sandbox/messages '{"from":"5511988887777","to":"5511999990001","text":"Thanks!","pushName":"Ana"}'; expect 200 "the phone answers"
received() { api GET "/v1/chat/instances/$ID" '' -H "Authorization: Bearer $KEY"; [ "$(field data.statistics.messagesReceived)" = 1 ]; }
until_ok 30 "the answer counted" received

# --- SIGTERM, then the containers made again on the same volumes, with the second node ------------------
log "tour done; SIGTERM"
stop_cleanly "$GW"
log "clean exit; compose down, then up again (volumes kept) with the profile two-nodes' second node"
compose down -t 30 || fail "podman-compose down"
compose up -d gateway gateway-2 || fail "podman-compose up (again)"
GW=$(gateway_container); GW2=$(gateway_container gateway-2)
until_ok 120 "the gateway ready again" ready
until_ok 30 "the instance connected after the restart" connected
api GET /api-keys '' -H "Authorization: Bearer $KEY"; expect 200 "the key after the restart"
B=http://127.0.0.1:$GATEWAY_2_PORT
two_nodes() { ready && [ "$(node -e 'console.log(JSON.parse(process.argv[1]).data.nodes.length)' "$BODY")" = 2 ]; }
until_ok 120 "the second node ready, two nodes listed" two_nodes
api POST /v1/messages/send '{"to":"5511988887777","text":"Still here"}' -H "X-API-Key: $KEY"; expect 200 "send through the second node"
until_ok 30 "the phone receives the message after the restart" phone_has '\[TEST\] Still here'
phone_has '\[TEST\] Your order shipped' || fail "the phone's earlier message is gone"
stop_cleanly "$GW2"
stop_cleanly "$GW"

# --- the image alone ------------------------------------------------------------------------------------
B=http://127.0.0.1:$SOLO_PORT
until_ok 120 "the image alone ready (embedded)" ready
[ "$(field data.database)" = ok ] || fail "embedded database: $BODY"
podman exec "$PROJECT-solo" test -d /data/pglite || fail "the embedded database is not in the /data volume"
[ "$(podman exec "$PROJECT-solo" id -u)" != 0 ] || fail "the image runs as root"
stop_cleanly "$PROJECT-solo"
log "all checks passed"
