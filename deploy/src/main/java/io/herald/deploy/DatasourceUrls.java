package io.herald.deploy;

import java.util.regex.Pattern;

/** A datasource URL fit for a log line: no user, no password, no parameters (they may carry either). */
final class DatasourceUrls {

    private static final Pattern USER_INFO = Pattern.compile("//[^/@?]*@");

    private DatasourceUrls() {
    }

    static String withoutCredentials(String url) {
        if (url == null || url.isBlank()) {
            return "(not set)";
        }
        String shown = USER_INFO.matcher(url).replaceFirst("//");
        int parameters = shown.indexOf('?');
        if (parameters >= 0) {
            shown = shown.substring(0, parameters) + "?…";
        }
        // jdbc:sqlserver and others put properties after ';'
        int properties = shown.indexOf(';');
        return properties >= 0 ? shown.substring(0, properties) + ";…" : shown;
    }
}
