<?php
/**
 * Turns a post into the plain text a social post carries, and cuts it to a channel's limit.
 * Lengths are counted in UTF-16 code units, as Herald (Java) counts them, so an emoji near the
 * limit cannot push a text that fits here over the limit there. Pure PHP, no WordPress.
 */

defined('ABSPATH') || defined('HERALD_PUBLISHER_TESTING') || exit;

final class Herald_Publisher_Text
{
    public const ELLIPSIS = '…';
    public const LIMITS = ['facebook' => 63206, 'linkedin' => 3000];
    /** For a channel whose type is not known (yet): the smallest limit, so the text fits everywhere. */
    public const UNKNOWN_LIMIT = 3000;

    private const BLOCK_TAGS = 'p|div|br|li|ul|ol|h[1-6]|blockquote|pre|figure|figcaption|table|tr|section|article|header|footer|hr';

    /** The channel limit for a Herald channel type; 0 means none. */
    public static function limit_for(?string $channel_type): int
    {
        if ($channel_type === 'wordpress') {
            return 0;
        }
        return self::LIMITS[$channel_type] ?? self::UNKNOWN_LIMIT;
    }

    /** Markup out, paragraphs kept as blank lines, entities decoded, whitespace tidied. */
    public static function plain_text(string $html): string
    {
        $text = preg_replace('#<(script|style)\b[^>]*>.*?</\1\s*>#is', '', $html) ?? '';
        $text = preg_replace('#<!--.*?-->#s', '', $text) ?? '';
        // Block boundaries become line breaks, so words of two paragraphs do not run together.
        $text = preg_replace('#</?(?:' . self::BLOCK_TAGS . ')\b[^>]*>#i', "\n", $text) ?? '';
        $text = strip_tags($text);
        $text = html_entity_decode($text, ENT_QUOTES | ENT_HTML5, 'UTF-8');
        $text = str_replace(["\r\n", "\r", "\u{00A0}"], ["\n", "\n", ' '], $text);
        $text = preg_replace('/[ \t\f]+/u', ' ', $text) ?? '';
        $text = preg_replace('/ *\n */u', "\n", $text) ?? '';
        $text = preg_replace('/\n{3,}/u', "\n\n", $text) ?? '';
        return trim($text);
    }

    public static function length(string $text): int
    {
        return intdiv(strlen(mb_convert_encoding($text, 'UTF-16LE', 'UTF-8')), 2);
    }

    /**
     * At most $limit units: unchanged when it fits, else cut at the last word boundary that
     * leaves room for an ellipsis (mid-word only when a single word is longer than the limit).
     */
    public static function cut(string $text, int $limit): string
    {
        if ($limit <= 0 || self::length($text) <= $limit) {
            return $text;
        }
        $room = $limit - self::length(self::ELLIPSIS);
        if ($room <= 0) {
            return self::take($text, $limit);
        }
        $head = self::take($text, $room);
        $next = mb_substr($text, mb_strlen($head), 1);
        if ($next !== '' && !preg_match('/\s/u', $next)) {
            // the cut fell inside a word: go back to the whitespace before it, if there is one
            $boundary = preg_match('/^(.*\S)\s+\S*$/su', $head, $m) === 1 ? $m[1] : null;
            if ($boundary !== null) {
                $head = $boundary;
            }
        }
        return (preg_replace('/[\s,;:\-–—]+$/u', '', $head) ?? $head) . self::ELLIPSIS;
    }

    /** The text, then a blank line and the link, all within $limit (the link is never cut). */
    public static function with_link(string $text, string $link, int $limit): string
    {
        if ($link === '') {
            return self::cut($text, $limit);
        }
        $tail = ($text === '' ? '' : "\n\n") . $link;
        $room = $limit <= 0 ? 0 : max(1, $limit - self::length($tail));
        return self::cut($text, $room) . $tail;
    }

    /** The longest prefix of whole code points within $units UTF-16 units. */
    private static function take(string $text, int $units): string
    {
        $out = '';
        $used = 0;
        foreach (preg_split('//u', $text, -1, PREG_SPLIT_NO_EMPTY) ?: [] as $char) {
            $size = strlen($char) === 4 ? 2 : 1;
            if ($used + $size > $units) {
                break;
            }
            $out .= $char;
            $used += $size;
        }
        return $out;
    }
}
