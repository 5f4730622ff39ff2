<?php
/**
 * The body of POST /publications for one record, from the content captured with its version:
 * the text cut to the channel's limit, and either the permalink as the link ("link" mode) or the
 * featured image with the permalink in the text ("image" mode). Pure PHP, no WordPress.
 */

defined('ABSPATH') || defined('HERALD_PUBLISHER_TESTING') || exit;

final class Herald_Publisher_Request
{
    /**
     * @param array $record a row of the table (post_id, channel_id, action, content_version, source)
     * @param array $settings the plugin's settings
     * @param array $channel_types channel id → Herald channel type, as far as known
     */
    public static function build(array $record, array $settings, array $channel_types): array
    {
        $site_id = $settings['site_id'] ?? Herald_Publisher_Settings::site_id();
        $channel = (string) $record['channel_id'];
        $request = [
            'calendarEntryId' => Herald_Publisher_Ids::calendar_entry_id($site_id, (int) $record['post_id']),
            'contentVersion' => (int) $record['content_version'],
            'channelId' => $channel,
            'action' => (string) $record['action'],
        ];
        if ($record['action'] === 'delete') {
            return $request;
        }
        $source = is_array($record['source']) ? $record['source'] : (json_decode((string) $record['source'], true) ?: []);
        $limit = Herald_Publisher_Text::limit_for($channel_types[$channel] ?? null);
        $title = (string) ($source['title'] ?? '');
        $text = (string) ($source['text'] ?? '');
        $text = $text !== '' ? $text : $title;
        $link = (string) ($source['link'] ?? '');
        $image = $source['image'] ?? null;
        $mode = ($settings['channel_modes'][$channel] ?? 'link') === 'image' && is_array($image) ? 'image' : 'link';

        $content = [];
        if ($title !== '') {
            $content['title'] = $title;
        }
        if ($mode === 'image') {
            $content['body'] = Herald_Publisher_Text::with_link($text, $link, $limit);
            // an update leaves media out: Facebook and LinkedIn keep the post's images
            if ($record['action'] === 'publish') {
                $alt = (string) ($image['altText'] ?? '');
                $content['media'] = [['mediaId' => 'med_' . $image['sha256'], 'altText' => $alt !== '' ? $alt : $title]];
            }
        } else {
            $content['body'] = Herald_Publisher_Text::cut($text, $limit);
            if ($link !== '') {
                $content['link'] = $link;
            }
        }
        $request['content'] = $content;
        return $request;
    }
}
