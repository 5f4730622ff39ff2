<?php

use PHPUnit\Framework\TestCase;

final class OutcomeTest extends TestCase
{
    private const NOW = 1_800_000_000;

    public function testAcceptedAnswersCarryHeraldsView(): void
    {
        foreach ([200, 202] as $status) {
            $o = Herald_Publisher_Outcome::of_answer($status, '{"publicationId":"pub_x","status":"REQUESTED"}', null, 1, self::NOW);
            $this->assertSame(Herald_Publisher_Outcome::ACCEPTED, $o->kind);
            $this->assertSame('REQUESTED', $o->view['status']);
        }
    }

    public function testTimeoutsAnd5xxFollowTheBackoffThenFail(): void
    {
        $waits = [];
        for ($tries = 1; $tries <= 5; $tries++) {
            $o = Herald_Publisher_Outcome::of_answer(503, '', null, $tries, self::NOW);
            $this->assertSame(Herald_Publisher_Outcome::RETRY, $o->kind);
            $waits[] = $o->retry_in;
        }
        $this->assertSame([60, 300, 1800, 7200, 21600], $waits);
        $this->assertSame(Herald_Publisher_Outcome::FAILED, Herald_Publisher_Outcome::of_answer(503, '', null, 6, self::NOW)->kind);
        $this->assertSame(Herald_Publisher_Outcome::RETRY, Herald_Publisher_Outcome::no_answer('timed out', 1)->kind);
        $this->assertSame(Herald_Publisher_Outcome::FAILED, Herald_Publisher_Outcome::no_answer('timed out', 6)->kind);
    }

    public function testTooManyRequestsWaitsForRetryAfter(): void
    {
        $this->assertSame(120, Herald_Publisher_Outcome::of_answer(429, '{"code":"rate_limited"}', '120', 1, self::NOW)->retry_in);
        $date = gmdate('D, d M Y H:i:s', self::NOW + 90) . ' GMT';
        $this->assertSame(90, Herald_Publisher_Outcome::of_answer(429, '', $date, 1, self::NOW)->retry_in);
        $this->assertSame(60, Herald_Publisher_Outcome::of_answer(429, '', null, 1, self::NOW)->retry_in);
    }

    public function testOther4xxFailAtOnceWithHeraldsCodeAndDetail(): void
    {
        $o = Herald_Publisher_Outcome::of_answer(422, '{"code":"unknown_channel","detail":"No channel li-x"}', null, 1, self::NOW);
        $this->assertSame(Herald_Publisher_Outcome::FAILED, $o->kind);
        $this->assertSame('unknown_channel', $o->code);
        $this->assertSame('No channel li-x', $o->detail);
        $v = Herald_Publisher_Outcome::of_answer(400, '{"code":"validation_failed","detail":"Invalid","errors":[{"field":"content.body","message":"too long"}]}',
            null, 1, self::NOW);
        $this->assertSame('Invalid (content.body: too long)', $v->detail);
        $this->assertSame('http_401', Herald_Publisher_Outcome::of_answer(401, 'not json', null, 1, self::NOW)->code);
    }

    public function testA2xxWithoutAViewIsRetried(): void
    {
        $this->assertSame(Herald_Publisher_Outcome::RETRY, Herald_Publisher_Outcome::of_answer(200, '<html>', null, 1, self::NOW)->kind);
    }
}
