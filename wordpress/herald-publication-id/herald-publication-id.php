<?php
/**
 * Plugin Name: Herald publication id
 * Description: Stores Herald's publication id on each post it creates and lets an editor find the post by it through the REST API, so Herald can tell whether an attempt with no answer created a post.
 * Version: 1.1.0
 * License: GPL-2.0-or-later
 * License URI: https://www.gnu.org/licenses/gpl-2.0.html
 *
 * Must-use plugin: copy this file into wp-content/mu-plugins/.
 */

defined('ABSPATH') || exit;

const HERALD_PUBLICATION_ID_META = 'herald_publication_id';
// What Herald's ids look like, in the JSON Schema form that REST errors and the lookup argument show.
const HERALD_PUBLICATION_ID_PATTERN = '^pub_[0-9a-f]{64}$';

/** Herald's ids only: "pub_" and 64 lowercase hex digits, nothing before or after (\z: no trailing newline). */
function herald_publication_id_is_valid($value): bool
{
    return is_string($value) && preg_match('/^pub_[0-9a-f]{64}\z/', $value) === 1;
}

/**
 * Only users who may publish posts may set the id: read-back believes a post carrying it, so a
 * contributor must not be able to plant one on a post of theirs.
 */
function herald_publication_id_user_may_set(int $user_id): bool
{
    $post_type = get_post_type_object('post');
    return $post_type !== null && user_can($user_id, $post_type->cap->publish_posts);
}

// Registered meta is readable and writable through REST; core silently drops unregistered keys.
add_action('init', function () {
    register_post_meta('post', HERALD_PUBLICATION_ID_META, [
        // No schema pattern here: core would then answer null instead of "" for posts without an id.
        // Writes are checked below, before anything is stored.
        'show_in_rest' => true,
        'single' => true,
        'type' => 'string',
        'description' => 'The Herald publication id (idempotency key) this post was created for.',
        // Also guards the other ways in (custom fields box, XML-RPC): edit_post_meta maps to this.
        'auth_callback' => fn($allowed, $meta_key, $post_id, $user_id) =>
            herald_publication_id_user_may_set((int) $user_id) && user_can($user_id, 'edit_post', $post_id),
    ]);
});

/*
 * Whatever the way in, a value that is not a Herald id is never stored: returning false from
 * these filters makes add/update_metadata give up without writing.
 */
foreach (['add_post_metadata', 'update_post_metadata'] as $herald_meta_filter) {
    add_filter($herald_meta_filter, function ($check, $object_id, $meta_key, $meta_value) {
        if ($meta_key === HERALD_PUBLICATION_ID_META && !herald_publication_id_is_valid($meta_value)) {
            return false;
        }
        return $check;
    }, 10, 4);
}

/*
 * Checked before the REST callback runs: core writes meta only after it has inserted or updated
 * the post, so a refusal from there would leave a post behind. Here a bad value or a user
 * without publish rights gets an error and nothing is written at all.
 */
add_filter('rest_request_before_callbacks', function ($response, $handler, WP_REST_Request $request) {
    if (is_wp_error($response) || !in_array($request->get_method(), ['POST', 'PUT', 'PATCH'], true)
        || !preg_match('#^/wp/v2/posts(/\d+(/autosaves)?)?/?$#', $request->get_route())) {
        return $response;
    }
    $meta = $request->get_param('meta');
    if (!is_array($meta) || !array_key_exists(HERALD_PUBLICATION_ID_META, $meta)) {
        return $response;
    }
    if (!herald_publication_id_user_may_set(get_current_user_id())) {
        return new WP_Error(
            'rest_cannot_update',
            'Sorry, you are not allowed to set the Herald publication id: it takes the right to publish posts.',
            ['status' => rest_authorization_required_code(), 'key' => HERALD_PUBLICATION_ID_META]
        );
    }
    if (!herald_publication_id_is_valid($meta[HERALD_PUBLICATION_ID_META])) {
        return new WP_Error(
            'rest_invalid_param',
            'Invalid parameter(s): meta',
            [
                'status' => 400,
                'params' => ['meta' => 'meta.' . HERALD_PUBLICATION_ID_META . ' must match ' . HERALD_PUBLICATION_ID_PATTERN . '.'],
            ]
        );
    }
    return $response;
}, 10, 3);

// Declaring the argument makes it visible in OPTIONS /wp/v2/posts, which is how Herald probes for this plugin.
add_filter('rest_post_collection_params', function (array $params) {
    $params[HERALD_PUBLICATION_ID_META] = [
        'description' => 'Limit the result set to posts created for this Herald publication id. Editors only.',
        'type' => 'string',
        // An empty id would otherwise match nothing in particular and read like "not found".
        'minLength' => 1,
        'pattern' => HERALD_PUBLICATION_ID_PATTERN,
        'sanitize_callback' => 'sanitize_text_field',
        'validate_callback' => 'rest_validate_request_arg',
    ];
    return $params;
});

/*
 * Without the capability the filter must refuse rather than be ignored: an ignored filter would
 * answer with unrelated posts (or none), and a client could take that for "not found".
 */
add_filter('rest_request_before_callbacks', function ($response, $handler, WP_REST_Request $request) {
    if (is_wp_error($response) || $request->get_param(HERALD_PUBLICATION_ID_META) === null) {
        return $response;
    }
    if ($request->get_method() !== 'GET' || !preg_match('#^/wp/v2/posts/?$#', $request->get_route())) {
        return $response;
    }
    if (!current_user_can('edit_posts')) {
        return new WP_Error(
            'rest_forbidden',
            'Sorry, you are not allowed to look up posts by Herald publication id.',
            ['status' => rest_authorization_required_code()]
        );
    }
    return $response;
}, 10, 3);

add_filter('rest_post_query', function (array $args, WP_REST_Request $request) {
    $publication_id = $request->get_param(HERALD_PUBLICATION_ID_META);
    if ($publication_id === null || !current_user_can('edit_posts')) {
        return $args;
    }
    $args['meta_query'] = array_merge($args['meta_query'] ?? [], [[
        'key' => HERALD_PUBLICATION_ID_META,
        'value' => $publication_id,
        'compare' => '=',
    ]]);
    return $args;
}, 10, 2);
