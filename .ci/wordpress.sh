#!/usr/bin/env bash
# Starts three local WordPress sites (Debian's package, PHP's built-in server, the local MariaDB) for
# the WordPress live tests: one for Herald's mu-plugin, one stock site WITHOUT it, and one for the
# herald-publisher plugin (a site that shares its posts through Herald). The plugins themselves are
# not copied here: the live tests install them from the zips the build makes (wordpress/target/),
# as a site owner would, and activate the publisher plugin.
# Run as root. Safe to run again: what is installed stays, stopped servers are started again, and
# the editor gets a fresh application password each run.
#
# Writes ${HERALD_WORDPRESS_ENV:-/tmp/herald-wordpress.env} (mode 600), read by WordPressLiveIT:
#   WP_PLUGIN_URL, WP_PLUGIN_USERNAME, WP_PLUGIN_APP_PASSWORD, WP_PLUGIN_CONFIG
#                                    site for the mu-plugin (CONFIG: its Debian config name)
#   WP_STOCK_URL,  WP_STOCK_USERNAME,  WP_STOCK_APP_PASSWORD    site without it
#   WP_PLUGIN_CONTRIBUTOR_USERNAME, WP_PLUGIN_CONTRIBUTOR_APP_PASSWORD
#                                    a contributor (no right to publish) on the plugin site
#   WP_PUBLISHER_URL, WP_PUBLISHER_USERNAME, WP_PUBLISHER_APP_PASSWORD, WP_PUBLISHER_CONFIG
#                                    site with the herald-publisher plugin (CONFIG: its Debian config name)
# Ports: HERALD_WP_PLUGIN_PORT (default 18081), HERALD_WP_STOCK_PORT (default 18082),
# HERALD_WP_PUBLISHER_PORT (default 18083).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# the plugins' sources, only to check that they parse; the tests install them from their zips
plugin_source="$repo_root/wordpress/herald-publication-id/herald-publication-id.php"
publisher_source="$repo_root/wordpress/herald-publisher"
install_script="$repo_root/.ci/wordpress/install-local-site.php"
router_source="$repo_root/.ci/wordpress/local-server-router.php"
env_file="${HERALD_WORDPRESS_ENV:-/tmp/herald-wordpress.env}"
plugin_port="${HERALD_WP_PLUGIN_PORT:-18081}"
stock_port="${HERALD_WP_STOCK_PORT:-18082}"
publisher_port="${HERALD_WP_PUBLISHER_PORT:-18083}"
state_dir=/var/lib/herald-wordpress
editor_login=herald-editor
contributor_login=herald-contributor
db_user=herald_wp
# phpunit: the herald-publisher plugin's unit tests, which the build runs when it is installed
packages=(wordpress php php-cli php-mysql php-xml curl phpunit)

log() { echo "wordpress.sh: $*" >&2; }

if [[ $EUID -ne 0 ]]; then
    log "must run as root"
    exit 1
fi

install_packages() {
    local missing=()
    for p in "${packages[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    if ((${#missing[@]} == 0)); then
        return
    fi
    log "installing ${missing[*]}"
    apt-get update -qq
    # No recommends: themes and translations are not needed for the REST API, and they are slow.
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
}

db() { mariadb --protocol=tcp -h 127.0.0.1 -P 3306 -u root "$@"; }

ensure_mariadb() {
    if mariadb-admin --protocol=tcp -h 127.0.0.1 -P 3306 -u root ping >/dev/null 2>&1; then
        return
    fi
    log "starting MariaDB"
    install -d -o mysql -g mysql /run/mysqld
    start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd
    for _ in $(seq 1 60); do
        mariadb-admin --protocol=tcp -h 127.0.0.1 -P 3306 -u root ping >/dev/null 2>&1 && return
        sleep 0.5
    done
    log "MariaDB did not answer on 127.0.0.1:3306"
    exit 1
}

db_password() {
    local file="$state_dir/db-password"
    if [[ ! -s $file ]]; then
        (umask 077 && head -c 18 /dev/urandom | base64 | tr -d '/+=' >"$file")
    fi
    cat "$file"
}

# $1 site name (plugin|stock), $2 port
configure_site() {
    local site=$1 port=$2 password
    local database="herald_wp_$site" content="$state_dir/$site/wp-content"
    password=$(db_password)
    db -e "CREATE DATABASE IF NOT EXISTS \`$database\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
           CREATE USER IF NOT EXISTS '$db_user'@'127.0.0.1' IDENTIFIED BY '$password';
           ALTER USER '$db_user'@'127.0.0.1' IDENTIFIED BY '$password';
           GRANT ALL PRIVILEGES ON \`$database\`.* TO '$db_user'@'127.0.0.1';"

    install -d "$content/plugins" "$content/themes" "$content/uploads" "$content/mu-plugins"
    if [[ $site != plugin ]]; then
        rm -rf "$content/mu-plugins/herald-publication-id.php" "$content/mu-plugins/herald-publication-id"
    fi
    chown -R www-data:www-data "$state_dir/$site"

    # Debian's wp-config.php loads /etc/wordpress/config-$WORDPRESS_CONFIG.php; each server sets that
    # variable (through the router), so both sites can live on 127.0.0.1 with their own database and wp-content.
    install -d /etc/wordpress
    (umask 027 && cat >"/etc/wordpress/config-herald-$site.php" <<PHP
<?php
// Herald's local WordPress test site "$site", written by .ci/wordpress.sh.
define('DB_NAME', '$database');
define('DB_USER', '$db_user');
define('DB_PASSWORD', '$password');
define('DB_HOST', '127.0.0.1:3306');
define('WP_CONTENT_DIR', '$content');
define('WP_HOME', 'http://127.0.0.1:$port');
define('WP_SITEURL', 'http://127.0.0.1:$port');
// Application Passwords are offered over plain HTTP only on a "local" site.
define('WP_ENVIRONMENT_TYPE', 'local');
define('DISABLE_WP_CRON', true);
define('AUTOMATIC_UPDATER_DISABLED', true);
\$table_prefix = 'wp_';
PHP
    )
    chgrp www-data "/etc/wordpress/config-herald-$site.php"
}

# $1 site name, $2 login, $3 role (default editor); prints the user's new application password
install_site() {
    local site=$1 login=${2:-$editor_login} role=${3:-editor}
    php "$install_script" "herald-$site" "$login" "$role"
}

server_running() {
    local site=$1 port=$2
    local pid_file="$state_dir/$site/server.pid"
    [[ -s $pid_file ]] && kill -0 "$(cat "$pid_file")" 2>/dev/null \
        && curl -fsS -o /dev/null "http://127.0.0.1:$port/?rest_route=/"
}

start_server() {
    local site=$1 port=$2
    local pid_file="$state_dir/$site/server.pid"
    local modules_file="$state_dir/$site/server.modules"
    # a server started before a PHP extension was installed (php-xml, say) lacks it until restarted
    if server_running "$site" "$port" && [[ "$(php -m | sha256sum)" == "$(cat "$modules_file" 2>/dev/null)" ]]; then
        return
    fi
    # A server that stopped answering: end it with its workers (setsid made it a group leader).
    if [[ -s $pid_file ]] && kill -0 "$(cat "$pid_file")" 2>/dev/null; then
        kill -- "-$(cat "$pid_file")" 2>/dev/null || true
        sleep 0.5
    fi
    if curl -s -o /dev/null "http://127.0.0.1:$port/"; then
        log "port $port is taken by another program; set HERALD_WP_${site^^}_PORT"
        exit 1
    fi
    log "starting the $site site on http://127.0.0.1:$port"
    # Several workers, so concurrent requests from a test don't queue behind each other.
    WORDPRESS_CONFIG="herald-$site" PHP_CLI_SERVER_WORKERS=4 setsid nohup \
        php -S "127.0.0.1:$port" -t /usr/share/wordpress "$state_dir/router.php" \
        >"$state_dir/$site/server.log" 2>&1 </dev/null &
    echo $! >"$pid_file"
    php -m | sha256sum >"$modules_file"
    for _ in $(seq 1 40); do
        curl -fsS -o /dev/null "http://127.0.0.1:$port/?rest_route=/" 2>/dev/null && return
        sleep 0.25
    done
    log "the $site site did not answer; see $state_dir/$site/server.log"
    exit 1
}

# Stale credentials must not outlive a failed run: the passwords in it are about to be replaced.
rm -f "$env_file"
install_packages
# A syntax error would only show as a 500 from the site; say it here instead.
for php_file in "$plugin_source" "$install_script" "$router_source" \
        "$publisher_source"/*.php "$publisher_source"/includes/*.php; do
    php -l "$php_file" >/dev/null || { log "$php_file does not parse"; exit 1; }
done
ensure_mariadb
install -d -m 755 "$state_dir"

configure_site plugin "$plugin_port"
configure_site stock "$stock_port"
configure_site publisher "$publisher_port"
plugin_password=$(install_site plugin)
stock_password=$(install_site stock)
contributor_password=$(install_site plugin "$contributor_login" contributor)
publisher_password=$(install_site publisher)
# The router is copied so that the servers do not depend on this checkout staying where it is; they
# read it on every request, so servers that keep running get this checkout's router too.
install -m 644 "$router_source" "$state_dir/router.php"
start_server plugin "$plugin_port"
start_server stock "$stock_port"
start_server publisher "$publisher_port"

(umask 077 && cat >"$env_file.tmp" <<ENV
WP_PLUGIN_URL=http://127.0.0.1:$plugin_port
WP_PLUGIN_USERNAME=$editor_login
WP_PLUGIN_APP_PASSWORD=$plugin_password
WP_PLUGIN_CONFIG=herald-plugin
WP_STOCK_URL=http://127.0.0.1:$stock_port
WP_STOCK_USERNAME=$editor_login
WP_STOCK_APP_PASSWORD=$stock_password
WP_PLUGIN_CONTRIBUTOR_USERNAME=$contributor_login
WP_PLUGIN_CONTRIBUTOR_APP_PASSWORD=$contributor_password
WP_PUBLISHER_URL=http://127.0.0.1:$publisher_port
WP_PUBLISHER_USERNAME=$editor_login
WP_PUBLISHER_APP_PASSWORD=$publisher_password
WP_PUBLISHER_CONFIG=herald-publisher
ENV
)
mv "$env_file.tmp" "$env_file"
log "WordPress for the Herald mu-plugin: http://127.0.0.1:$plugin_port, without: http://127.0.0.1:$stock_port"
log "WordPress for the herald-publisher plugin: http://127.0.0.1:$publisher_port"
log "the live tests install both plugins from wordpress/target/*.zip (./mvnw package builds them)"
log "credentials written to $env_file"
