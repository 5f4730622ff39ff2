<?php
/**
 * Router for PHP's built-in server in front of Debian's WordPress (tests only, see .ci/wordpress.sh).
 * The built-in server does not pass its environment into $_SERVER, where Debian's wp-config.php
 * looks for WORDPRESS_CONFIG to pick /etc/wordpress/config-<name>.php; so this router copies it.
 *
 * Each site keeps its wp-content outside WordPress's folder (as Debian's Apache set-up does, with an
 * alias), in the state folder this router is copied to: <state>/<site>/wp-content for the config
 * herald-<site>. Static files under /wp-content/ (a plugin's scripts, uploads) are served from there.
 * Returning false lets the server go on as usual: files as they are, every other path to index.php.
 */
$_SERVER['WORDPRESS_CONFIG'] = getenv('WORDPRESS_CONFIG');

$herald_path = rawurldecode((string) parse_url($_SERVER['REQUEST_URI'] ?? '', PHP_URL_PATH));
if (strpos($herald_path, '/wp-content/') === 0 && strpos($herald_path, '..') === false) {
    $herald_site = preg_replace('/^herald-/', '', (string) getenv('WORDPRESS_CONFIG'));
    $herald_file = __DIR__ . '/' . $herald_site . $herald_path;
    $herald_extension = strtolower(pathinfo($herald_file, PATHINFO_EXTENSION));
    $herald_types = ['js' => 'text/javascript', 'css' => 'text/css', 'json' => 'application/json', 'png' => 'image/png',
        'jpg' => 'image/jpeg', 'jpeg' => 'image/jpeg', 'gif' => 'image/gif', 'webp' => 'image/webp',
        'svg' => 'image/svg+xml', 'woff2' => 'font/woff2', 'txt' => 'text/plain'];
    if ($herald_site !== '' && is_file($herald_file) && isset($herald_types[$herald_extension])) {
        header('Content-Type: ' . $herald_types[$herald_extension]);
        header('Content-Length: ' . filesize($herald_file));
        readfile($herald_file);
        return true;
    }
}
return false;
