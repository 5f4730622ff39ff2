<?php
/**
 * Router for PHP's built-in server in front of Debian's WordPress (tests only, see .ci/wordpress.sh).
 * The built-in server does not pass its environment into $_SERVER, where Debian's wp-config.php
 * looks for WORDPRESS_CONFIG to pick /etc/wordpress/config-<name>.php; so this router copies it.
 * Returning false lets the server go on as usual: files as they are, every other path to index.php.
 */
$_SERVER['WORDPRESS_CONFIG'] = getenv('WORDPRESS_CONFIG');
return false;
