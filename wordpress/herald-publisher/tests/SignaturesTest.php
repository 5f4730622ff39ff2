<?php

use PHPUnit\Framework\TestCase;

final class SignaturesTest extends TestCase
{
    // The test vector of the Standard Webhooks specification's reference libraries.
    private const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    private const ID = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
    private const TIMESTAMP = '1614265330';
    private const BODY = '{"test": 2432232314}';
    private const SIGNATURE = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';

    public function testV2SignatureBindsTimeMethodPathAndBodyHash(): void
    {
        $body = '{"calendarEntryId":"entry-42"}';
        $expected = hash_hmac('sha256', "1700000000\nPOST\n/api/v1/workspaces/acme/publications\n" . hash('sha256', $body), 's3cret');
        $this->assertSame('t=1700000000,v2=' . $expected, Herald_Publisher_Signatures::v2_header('s3cret', 1700000000, 'post',
            '/api/v1/workspaces/acme/publications', $body));
    }

    public function testV2SignatureOfAKnownRequest(): void
    {
        // computed with openssl, not with this code: printf "1700000000\nPOST\n/api/v1/workspaces/acme/media\n$(printf "" | sha256sum | cut -d" " -f1)" | openssl dgst -sha256 -hmac s3cret
        $this->assertSame('t=1700000000,v2=8039473c572c60b93bff8e8d1164fc56b71d37f5e720350c05bfc528e184fe69',
            Herald_Publisher_Signatures::v2_header('s3cret', 1700000000, 'POST', '/api/v1/workspaces/acme/media', ''));
    }

    public function testV2SignatureDiffersForAnotherPathOrMethod(): void
    {
        $a = Herald_Publisher_Signatures::v2_header('s', 1, 'POST', '/api/v1/workspaces/a/publications', '{}');
        $this->assertNotSame($a, Herald_Publisher_Signatures::v2_header('s', 1, 'PUT', '/api/v1/workspaces/a/publications', '{}'));
        $this->assertNotSame($a, Herald_Publisher_Signatures::v2_header('s', 1, 'POST', '/api/v1/workspaces/b/publications', '{}'));
    }

    public function testStandardWebhooksTestVectorIsAccepted(): void
    {
        $this->assertNull(Herald_Publisher_Signatures::webhook_problem(self::SECRET, self::ID, self::TIMESTAMP, self::SIGNATURE,
            self::BODY, (int) self::TIMESTAMP));
    }

    public function testOneMatchingSignatureAmongSeveralIsEnough(): void
    {
        $this->assertNull(Herald_Publisher_Signatures::webhook_problem(self::SECRET, self::ID, self::TIMESTAMP,
            'v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc= ' . self::SIGNATURE, self::BODY, (int) self::TIMESTAMP + 10));
    }

    public function testWrongStaleOrMissingSignaturesAreRefused(): void
    {
        $now = (int) self::TIMESTAMP;
        $cases = [
            'other body' => [self::SECRET, self::ID, self::TIMESTAMP, self::SIGNATURE, '{"test": 2432232315}', $now],
            'other id' => [self::SECRET, 'msg_other', self::TIMESTAMP, self::SIGNATURE, self::BODY, $now],
            'other secret' => ['whsec_' . base64_encode(str_repeat('k', 24)), self::ID, self::TIMESTAMP, self::SIGNATURE, self::BODY, $now],
            'too old' => [self::SECRET, self::ID, self::TIMESTAMP, self::SIGNATURE, self::BODY, $now + 301],
            'from the future' => [self::SECRET, self::ID, self::TIMESTAMP, self::SIGNATURE, self::BODY, $now - 301],
            'no signature' => [self::SECRET, self::ID, self::TIMESTAMP, null, self::BODY, $now],
            'no timestamp' => [self::SECRET, self::ID, null, self::SIGNATURE, self::BODY, $now],
            'no id' => [self::SECRET, null, self::TIMESTAMP, self::SIGNATURE, self::BODY, $now],
            'other version' => [self::SECRET, self::ID, self::TIMESTAMP, 'v1a,' . substr(self::SIGNATURE, 3), self::BODY, $now],
            'no secret configured' => ['', self::ID, self::TIMESTAMP, self::SIGNATURE, self::BODY, $now],
            'timestamp not a number' => [self::SECRET, self::ID, '1614265330.0', self::SIGNATURE, self::BODY, $now],
        ];
        foreach ($cases as $name => $args) {
            $this->assertNotNull(Herald_Publisher_Signatures::webhook_problem(...$args), $name);
        }
    }

    public function testTheToleranceIsFiveMinutesEitherSide(): void
    {
        $now = (int) self::TIMESTAMP;
        foreach ([$now + 300, $now - 300] as $at) {
            $this->assertNull(Herald_Publisher_Signatures::webhook_problem(self::SECRET, self::ID, self::TIMESTAMP,
                self::SIGNATURE, self::BODY, $at));
        }
    }
}
