/**
 * Herald Publisher's panel in the block editor's post sidebar: each channel's Herald state for this
 * post, and the choice of channels (or no sharing at all). Plain JavaScript on WordPress's own
 * script globals, no build step.
 *
 * The choice is post meta the editor sends with the post itself (editPost({ meta })), so it is in
 * place when the plugin captures the post: no second request after the save, as a meta box has.
 * The state comes from GET /herald/v1/posts/{id}/status: after each save, and every few seconds
 * while a channel's last record is not final.
 */
(function (wp, config) {
    'use strict';

    if (!wp || !wp.plugins || !config) {
        return;
    }
    var el = wp.element.createElement;
    var useState = wp.element.useState;
    var useEffect = wp.element.useEffect;
    var useRef = wp.element.useRef;
    var useSelect = wp.data.useSelect;
    var useDispatch = wp.data.useDispatch;
    var CheckboxControl = wp.components.CheckboxControl;
    var __ = wp.i18n.__;
    var sprintf = wp.i18n.sprintf;
    // wp.editor has the panel from WordPress 6.6 on; wp.editPost before (and deprecated there)
    var PluginDocumentSettingPanel = (wp.editor && wp.editor.PluginDocumentSettingPanel)
        || (wp.editPost && wp.editPost.PluginDocumentSettingPanel);
    if (!PluginDocumentSettingPanel) {
        return;
    }
    var POLL_MS = 5000;
    var DECISION = ['OUTCOME_UNKNOWN', 'NOT_EXECUTED', 'HELD'];
    var FAILED = ['FAILED', 'ABANDONED'];
    var QUEUED = ['QUEUED', 'SENDING'];

    /** The newest record of each channel (the route lists the newest version first). */
    function newestByChannel(records) {
        var seen = {};
        var out = [];
        (records || []).forEach(function (record) {
            if (!seen[record.channelId]) {
                seen[record.channelId] = true;
                out.push(record);
            }
        });
        return out;
    }

    /** The words of the posts list's Herald column: queued, sent, published, needs a decision, failed. */
    function stateOf(record) {
        var error = record.error || {};
        if (record.status === 'SUCCEEDED') {
            var done = record.action === 'delete' ? __('deleted', 'herald-publisher') : __('published', 'herald-publisher');
            return record.url ? el('a', { href: record.url, target: '_blank', rel: 'noopener noreferrer' }, done) : done;
        }
        if (DECISION.indexOf(record.status) >= 0) {
            return __('needs a decision', 'herald-publisher') + (error.detail ? ' — ' + error.detail : '');
        }
        if (FAILED.indexOf(record.status) >= 0) {
            return el('span', { style: { color: '#b32d2e' } }, __('failed', 'herald-publisher')
                + (error.code ? ' — ' + error.code : ''));
        }
        if (QUEUED.indexOf(record.status) >= 0) {
            return __('queued', 'herald-publisher') + (error.code
                ? ' (' + sprintf(__('retrying after %s', 'herald-publisher'), error.code) + ')' : '');
        }
        return __('sent', 'herald-publisher');
    }

    function StatusList(props) {
        if (props.error) {
            return el('p', { className: 'herald-publisher-status-error' }, props.error);
        }
        if (!props.records) {
            return null;
        }
        var newest = newestByChannel(props.records);
        if (!newest.length) {
            return el('p', { className: 'herald-publisher-status-none' }, __('Not shared yet.', 'herald-publisher'));
        }
        return el('ul', { className: 'herald-publisher-status' }, newest.map(function (record) {
            return el('li', {
                key: record.channelId,
                'data-channel': record.channelId,
                'data-status': record.status
            }, el('strong', null, record.channelId + ': '), stateOf(record));
        }));
    }

    function HeraldPanel() {
        var editor = useSelect(function (select) {
            var store = select('core/editor');
            return {
                postId: store.getCurrentPostId(),
                meta: store.getEditedPostAttribute('meta') || {},
                saving: store.isSavingPost() && !store.isAutosavingPost()
            };
        }, []);
        var editPost = useDispatch('core/editor').editPost;
        var statusState = useState(null);
        var records = statusState[0];
        var setRecords = statusState[1];
        var errorState = useState(null);
        var setError = errorState[1];
        var refreshState = useState(0);
        var refresh = refreshState[0];
        var setRefresh = refreshState[1];
        var wasSaving = useRef(false);

        // a save that just ended may have queued records: read the state again
        useEffect(function () {
            if (wasSaving.current && !editor.saving) {
                setRefresh(function (n) { return n + 1; });
            }
            wasSaving.current = editor.saving;
        }, [editor.saving]);

        useEffect(function () {
            if (!editor.postId) {
                return undefined;
            }
            var current = true;
            var timer = null;
            wp.apiFetch({ path: '/herald/v1/posts/' + editor.postId + '/status' }).then(function (answer) {
                if (!current) {
                    return;
                }
                setError(null);
                setRecords(answer.channels || []);
                var pending = newestByChannel(answer.channels).some(function (record) {
                    return config.finalStatuses.indexOf(record.status) < 0;
                });
                if (pending) {
                    timer = setTimeout(function () { setRefresh(function (n) { return n + 1; }); }, POLL_MS);
                }
            }, function (problem) {
                if (current) {
                    setError((problem && problem.message) || __('Herald\'s state could not be read.', 'herald-publisher'));
                }
            });
            return function () {
                current = false;
                if (timer) {
                    clearTimeout(timer);
                }
            };
        }, [editor.postId, refresh]);

        var meta = editor.meta;
        var chosen = Array.isArray(meta[config.channelsMeta]) ? meta[config.channelsMeta] : config.channels;
        var skip = meta[config.skipMeta] === true;

        function setMeta(key, value) {
            var change = {};
            change[key] = value;
            editPost({ meta: change });
        }

        function toggle(channel, on) {
            // kept in the order of the settings, as the classic box saves it
            var next = config.channels.filter(function (c) {
                return c === channel ? on : chosen.indexOf(c) >= 0;
            });
            setMeta(config.channelsMeta, next);
        }

        var body;
        if (!config.channels.length) {
            body = el('p', null, __('No Herald channels are configured yet (Settings → Herald).', 'herald-publisher'));
        } else {
            body = el('div', null,
                el(CheckboxControl, {
                    label: __('Do not share this post', 'herald-publisher'),
                    checked: skip,
                    onChange: function (on) { setMeta(config.skipMeta, on); },
                    'data-herald-skip': '1'
                }),
                el('fieldset', { className: 'herald-publisher-channels', disabled: skip },
                    el('legend', null, __('Channels', 'herald-publisher')),
                    config.channels.map(function (channel) {
                        return el(CheckboxControl, {
                            key: channel,
                            label: channel,
                            checked: chosen.indexOf(channel) >= 0,
                            onChange: function (on) { toggle(channel, on); },
                            'data-channel': channel
                        });
                    })));
        }
        return el(PluginDocumentSettingPanel, {
            name: 'herald-publisher',
            title: __('Herald', 'herald-publisher'),
            className: 'herald-publisher-panel'
        }, body, el(StatusList, { records: records, error: errorState[0] }));
    }

    wp.plugins.registerPlugin('herald-publisher', { render: HeraldPanel, icon: 'megaphone' });
}(window.wp, window.heraldPublisherEditor));
