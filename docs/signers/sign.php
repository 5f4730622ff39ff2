<?php
// Prints the X-Herald-Signature value for one request.
// usage: php sign.php SECRET UNIX_SECONDS METHOD PATH_AND_QUERY BODY_FILE

function herald_signature(string $secret, int $t, string $method, string $pathAndQuery, string $body): string
{
    $signed = $t . "\n" . $method . "\n" . $pathAndQuery . "\n" . hash('sha256', $body);
    return 't=' . $t . ',v2=' . hash_hmac('sha256', $signed, $secret);
}

if (PHP_SAPI === 'cli' && isset($argv) && realpath($argv[0]) === __FILE__) {
    [, $secret, $t, $method, $path, $bodyFile] = $argv;
    echo herald_signature($secret, (int) $t, $method, $path, file_get_contents($bodyFile)), "\n";
}
