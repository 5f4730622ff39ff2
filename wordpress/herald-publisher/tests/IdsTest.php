<?php

use PHPUnit\Framework\TestCase;

final class IdsTest extends TestCase
{
    public function testPublicationIdIsDesignsTestVector(): void
    {
        $this->assertSame('pub_e72fc7f415caa75d9cf15fba8e3a10f575c62a5d118ff6265baddf13033b2bc5',
            Herald_Publisher_Ids::publication_id('acme', 'entry-42', 3, 'fb-main', 'publish'));
    }

    public function testEveryPartOfTheKeyChangesTheId(): void
    {
        $base = Herald_Publisher_Ids::publication_id('acme', 'entry-42', 3, 'fb-main', 'publish');
        $others = [
            Herald_Publisher_Ids::publication_id('acme2', 'entry-42', 3, 'fb-main', 'publish'),
            Herald_Publisher_Ids::publication_id('acme', 'entry-43', 3, 'fb-main', 'publish'),
            Herald_Publisher_Ids::publication_id('acme', 'entry-42', 4, 'fb-main', 'publish'),
            Herald_Publisher_Ids::publication_id('acme', 'entry-42', 3, 'li-main', 'publish'),
            Herald_Publisher_Ids::publication_id('acme', 'entry-42', 3, 'fb-main', 'update'),
        ];
        foreach ($others as $other) {
            $this->assertNotSame($base, $other);
        }
    }

    public function testCalendarEntryIdNamesTheSiteAndThePost(): void
    {
        $this->assertSame('wp:abc123def456:12', Herald_Publisher_Ids::calendar_entry_id('abc123def456', 12));
    }

    public function testSiteIdIsTwelveLowercaseLettersAndDigits(): void
    {
        $seen = [];
        for ($i = 0; $i < 50; $i++) {
            $id = Herald_Publisher_Ids::new_site_id();
            $this->assertMatchesRegularExpression('/^[a-z0-9]{12}$/', $id);
            $seen[$id] = true;
        }
        $this->assertCount(50, $seen);
        $this->assertFalse(Herald_Publisher_Ids::is_site_id("abc123def456\n"));
        $this->assertFalse(Herald_Publisher_Ids::is_site_id('ABC123DEF456'));
    }

    public function testMediaIdIsTheHashOfTheBytesAsHeraldNamesIt(): void
    {
        $this->assertSame('med_' . hash('sha256', 'png bytes'), Herald_Publisher_Ids::media_id('png bytes'));
    }
}
