#!/bin/sh
# After the data changed: rebuild the site, regenerate nginx's configuration, test it, reload nginx,
# restart `subjekti serve`, and check the deployment. Any step that fails stops here, and nginx keeps
# the configuration it was running (the new one is tested before it replaces the old).
#
# Every setting comes from the environment (a systemd EnvironmentFile, or exported before); the
# defaults are the layout docs/production.md describes:
#   SUBJEKTI        the CLI (default: /srv/subjekti/node_modules/.bin/subjekti)
#   DATA            the source data directory (default: /srv/subjekti/data)
#   SITE            the built site, nginx's root (default: /srv/subjekti/dist)
#   BASE_URL        the public origin, such as https://registry.example.hr (required)
#   BUILD_ARGS      more `subjekti build` options (such as --limits 20,100)
#   NGINX_CONF      the file nginx includes (default: /etc/nginx/conf.d/subjekti.conf)
#   NGINX_ARGS      `subjekti nginx` options (such as --listen '443 ssl http2' --ssl-certificate … --name …)
#   NGINX_COMMAND   the nginx command (default: nginx); `$NGINX_COMMAND -t` tests, `-s reload` reloads.
#                   Not NGINX: nginx itself reads NGINX from its environment (the sockets an upgrade
#                   hands on), and any other value there makes every nginx call log [emerg].
#   RESTART_SERVE   restarts `subjekti serve` (default: systemctl restart subjekti)
#   CHECK_ARGS      `subjekti check` options (such as --connect 127.0.0.1:443 --sample 200); CHECK=0 skips it
set -eu
SUBJEKTI=${SUBJEKTI:-/srv/subjekti/node_modules/.bin/subjekti}
DATA=${DATA:-/srv/subjekti/data}
SITE=${SITE:-/srv/subjekti/dist}
NGINX_CONF=${NGINX_CONF:-/etc/nginx/conf.d/subjekti.conf}
NGINX_COMMAND=${NGINX_COMMAND:-nginx}
# A value left in NGINX (this script's old name for the command) would reach nginx as its own variable.
unset NGINX
RESTART_SERVE=${RESTART_SERVE:-systemctl restart subjekti}
: "${BASE_URL:?set BASE_URL to the public origin, such as https://registry.example.hr}"

say() { printf 'redeploy: %s\n' "$*" >&2; }

say "build $DATA -> $SITE for $BASE_URL"
# The *_ARGS are read as a shell reads them, quotes included (--cache-control 'public, max-age=300').
eval "set -- ${BUILD_ARGS:-}"
"$SUBJEKTI" build --data "$DATA" --out "$SITE" --base-url "$BASE_URL" --quiet "$@"

say "regenerate $NGINX_CONF"
eval "set -- ${NGINX_ARGS:-}"
"$SUBJEKTI" nginx --dir "$SITE" "$@" > "$NGINX_CONF.new"
if [ -f "$NGINX_CONF" ]; then cp "$NGINX_CONF" "$NGINX_CONF.old"; fi
mv "$NGINX_CONF.new" "$NGINX_CONF"
# shellcheck disable=SC2086
if ! $NGINX_COMMAND -t 2>&1; then
  say "nginx -t failed: the previous configuration is put back, nginx was not reloaded"
  if [ -f "$NGINX_CONF.old" ]; then mv "$NGINX_CONF.old" "$NGINX_CONF"; else rm -f "$NGINX_CONF"; fi
  exit 1
fi
rm -f "$NGINX_CONF.old"

say "restart subjekti serve, reload nginx"
sh -c "$RESTART_SERVE"
# shellcheck disable=SC2086
$NGINX_COMMAND -s reload

if [ "${CHECK:-1}" != 0 ]; then
  say "check $BASE_URL against $SITE"
  # nginx's workers take the new configuration a moment after the signal.
  sleep "${CHECK_DELAY:-1}"
  eval "set -- ${CHECK_ARGS:-}"
  "$SUBJEKTI" check "$BASE_URL" --dir "$SITE" --quiet "$@"
fi
say "done"
