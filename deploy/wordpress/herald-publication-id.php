<?php
/**
 * Plugin Name: Herald publication id
 * Description: Stores Herald's publication id on each post it creates and lets an editor find the post by it through the REST API, so Herald can tell whether an attempt with no answer created a post.
 * Version: 1.0.0
 *
 * Must-use plugin: copy this file into wp-content/mu-plugins/.
 */

defined('ABSPATH') || exit;

const HERALD_PUBLICATION_ID_META = 'herald_publication_id';

// Registered meta is readable and writable through REST; core silently drops unregistered keys.
add_action('init', function () {
    register_post_meta('post', HERALD_PUBLICATION_ID_META, [
        'show_in_rest' => true,
        'single' => true,
        'type' => 'string',
        'description' => 'The Herald publication id (idempotency key) this post was created for.',
        'auth_callback' => fn() => current_user_can('edit_posts'),
    ]);
});

// Declaring the argument makes it visible in OPTIONS /wp/v2/posts, which is how Herald probes for this plugin.
add_filter('rest_post_collection_params', function (array $params) {
    $params[HERALD_PUBLICATION_ID_META] = [
        'description' => 'Limit the result set to posts created for this Herald publication id. Editors only.',
        'type' => 'string',
        // An empty id would otherwise match nothing in particular and read like "not found".
        'minLength' => 1,
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
