<?php

use PHPUnit\Framework\TestCase;

final class TextTest extends TestCase
{
    public function testMarkupScriptsAndEntitiesAreRemovedAndParagraphsKept(): void
    {
        $html = "<!-- wp:paragraph --><p>Caf&eacute; <strong>opens</strong>&nbsp;today &amp; tomorrow.</p><!-- /wp:paragraph -->"
            . "<script>alert('x')</script><style>p{}</style>\n\n\n<p>Second   paragraph<br>with a break.</p>";
        $this->assertSame("Café opens today & tomorrow.\n\nSecond paragraph\nwith a break.", Herald_Publisher_Text::plain_text($html));
    }

    public function testWordsOfAdjacentBlocksDoNotRunTogether(): void
    {
        $this->assertSame("One\n\nTwo", Herald_Publisher_Text::plain_text('<h2>One</h2><div>Two</div>'));
    }

    public function testTextWithinTheLimitIsUnchanged(): void
    {
        $this->assertSame('Short text', Herald_Publisher_Text::cut('Short text', 10));
    }

    public function testCutFallsOnAWordBoundaryWithAnEllipsis(): void
    {
        $cut = Herald_Publisher_Text::cut('The quick brown fox jumps over the lazy dog', 18);
        $this->assertSame('The quick brown…', $cut);
        $this->assertLessThanOrEqual(18, Herald_Publisher_Text::length($cut));
    }

    public function testCutAtAWordEndKeepsThatWord(): void
    {
        $this->assertSame('The quick brown fox…', Herald_Publisher_Text::cut('The quick brown fox jumps', 20));
    }

    public function testASingleLongWordIsCutInside(): void
    {
        $this->assertSame('Supercalif…', Herald_Publisher_Text::cut('Supercalifragilistic', 11));
    }

    public function testLengthsCountUtf16UnitsAsHeraldDoes(): void
    {
        $this->assertSame(2, Herald_Publisher_Text::length('😀'));
        $this->assertSame(4, Herald_Publisher_Text::length('café'));
        // an emoji is never split in half, and the result fits in UTF-16 units
        $cut = Herald_Publisher_Text::cut(str_repeat('😀', 10), 6);
        $this->assertSame('😀😀…', $cut);
        $this->assertLessThanOrEqual(6, Herald_Publisher_Text::length($cut));
    }

    public function testLinkedInLimitHoldsForALongPost(): void
    {
        $long = trim(str_repeat('Lorem ipsum dolor sit amet, consectetur adipiscing elit. ', 200));
        $cut = Herald_Publisher_Text::cut($long, Herald_Publisher_Text::limit_for('linkedin'));
        $this->assertSame(3000, Herald_Publisher_Text::limit_for('linkedin'));
        $this->assertLessThanOrEqual(3000, Herald_Publisher_Text::length($cut));
        $this->assertGreaterThan(2950, Herald_Publisher_Text::length($cut));
        $this->assertStringEndsWith('…', $cut);
        $this->assertStringStartsWith(rtrim(mb_substr($cut, 0, -1), ' ,.'), $long);
    }

    public function testTheLinkIsNeverCutAndTheWholeFits(): void
    {
        $link = 'https://blog.example/2026/12/a-long-permalink/';
        $out = Herald_Publisher_Text::with_link(str_repeat('word ', 50), $link, 80);
        $this->assertStringEndsWith("…\n\n" . $link, $out);
        $this->assertLessThanOrEqual(80, Herald_Publisher_Text::length($out));
    }

    public function testLimitsByChannelType(): void
    {
        $this->assertSame(63206, Herald_Publisher_Text::limit_for('facebook'));
        $this->assertSame(0, Herald_Publisher_Text::limit_for('wordpress'));
        $this->assertSame(3000, Herald_Publisher_Text::limit_for(null));
    }
}
