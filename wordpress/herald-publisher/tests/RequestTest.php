<?php

use PHPUnit\Framework\TestCase;

final class RequestTest extends TestCase
{
    private const SETTINGS = ['site_id' => 'abc123def456', 'channel_modes' => ['fb-photo' => 'image']];

    private static function record(string $channel, string $action, array $source): array
    {
        return ['post_id' => 12, 'channel_id' => $channel, 'action' => $action, 'content_version' => 2,
            'source' => json_encode($source)];
    }

    private static function source(string $text): array
    {
        return ['title' => 'Hello', 'text' => $text, 'link' => 'https://blog.example/hello/',
            'image' => ['attachmentId' => 5, 'sha256' => str_repeat('a', 64), 'contentType' => 'image/png', 'altText' => 'A cat']];
    }

    public function testLinkModeSendsTheTextCutAndThePermalink(): void
    {
        $body = Herald_Publisher_Request::build(self::record('li-main', 'publish', self::source(str_repeat('word ', 1000))),
            self::SETTINGS, ['li-main' => 'linkedin']);
        $this->assertSame('wp:abc123def456:12', $body['calendarEntryId']);
        $this->assertSame(2, $body['contentVersion']);
        $this->assertSame('https://blog.example/hello/', $body['content']['link']);
        $this->assertLessThanOrEqual(3000, Herald_Publisher_Text::length($body['content']['body']));
        $this->assertArrayNotHasKey('media', $body['content']);
    }

    public function testImageModeSendsTheFeaturedImageWithItsAltTextAndTheLinkInTheText(): void
    {
        $body = Herald_Publisher_Request::build(self::record('fb-photo', 'publish', self::source('Text')), self::SETTINGS,
            ['fb-photo' => 'facebook']);
        $this->assertSame([['mediaId' => 'med_' . str_repeat('a', 64), 'altText' => 'A cat']], $body['content']['media']);
        $this->assertSame("Text\n\nhttps://blog.example/hello/", $body['content']['body']);
        $this->assertArrayNotHasKey('link', $body['content']);
    }

    public function testAnUpdateInImageModeLeavesTheImagesAlone(): void
    {
        $body = Herald_Publisher_Request::build(self::record('fb-photo', 'update', self::source('New text')), self::SETTINGS, []);
        $this->assertSame('update', $body['action']);
        $this->assertArrayNotHasKey('media', $body['content']);
    }

    public function testADeleteCarriesNoContent(): void
    {
        $body = Herald_Publisher_Request::build(self::record('li-main', 'delete', ['action' => 'delete']), self::SETTINGS, []);
        $this->assertSame(['calendarEntryId' => 'wp:abc123def456:12', 'contentVersion' => 2, 'channelId' => 'li-main',
            'action' => 'delete'], $body);
    }

    public function testAPostWithoutTextSharesItsTitle(): void
    {
        $body = Herald_Publisher_Request::build(self::record('li-main', 'publish', self::source('')), self::SETTINGS, []);
        $this->assertSame('Hello', $body['content']['body']);
    }
}
