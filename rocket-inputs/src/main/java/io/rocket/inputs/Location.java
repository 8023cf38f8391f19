package io.rocket.inputs;

import io.rocket.core.RocketException;
import java.util.Locale;

/**
 * A remote location as the user typed it, split into its parts. Paths of {@code sftp://} and {@code s3://} locations
 * are taken literally, as {@code scp} and {@code aws s3} take them (a space is a space, {@code %20} is three
 * characters), because file and object names typed on a command line or listed in a file are not URL-encoded.
 */
record Location(String text, String scheme, String user, boolean password, String host, int port, String path) {

    /** Splits {@code scheme://[user[:password]@]host[:port][/path]}; the scheme has been recognised already. */
    static Location parse(String text, String scheme) {
        int start = text.indexOf("://") + 3;
        int slash = text.indexOf('/', start);
        String authority = slash < 0 ? text.substring(start) : text.substring(start, slash);
        String path = slash < 0 ? "" : text.substring(slash);
        String user = null;
        boolean password = false;
        int at = authority.lastIndexOf('@');
        if (at >= 0) {
            String userInfo = authority.substring(0, at);
            authority = authority.substring(at + 1);
            int colon = userInfo.indexOf(':');
            password = colon >= 0;
            user = password ? userInfo.substring(0, colon) : userInfo;
        }
        String host = authority;
        int port = -1;
        String portText = null;
        if (authority.startsWith("[")) {
            int close = authority.indexOf(']');
            if (close < 0) {
                throw new RocketException(masked(text) + ": unbalanced '[' in the host");
            }
            host = authority.substring(1, close);
            if (close + 1 < authority.length()) {
                if (authority.charAt(close + 1) != ':') {
                    throw new RocketException(masked(text) + ": expected ':port' after ']'");
                }
                portText = authority.substring(close + 2);
            }
        } else {
            int colon = authority.lastIndexOf(':');
            if (colon >= 0) {
                host = authority.substring(0, colon);
                portText = authority.substring(colon + 1);
            }
        }
        if (portText != null) {
            port = parsePort(text, portText);
        }
        if (host.isEmpty()) {
            String what = scheme.equals("s3") ? "bucket" : "host";
            throw new RocketException(masked(text) + ": no " + what + " after " + scheme + "://");
        }
        return new Location(text, scheme.toLowerCase(Locale.ROOT), user, password, host, port, path);
    }

    /** The text with any password replaced, so that error messages and logs never repeat a secret. */
    static String masked(String text) {
        int start = text.indexOf("://");
        if (start < 0) {
            return text;
        }
        start += 3;
        int slash = text.indexOf('/', start);
        int end = slash < 0 ? text.length() : slash;
        int at = text.lastIndexOf('@', end - 1);
        if (at < start) {
            return text;
        }
        int colon = text.indexOf(':', start);
        if (colon < 0 || colon > at) {
            return text;
        }
        return text.substring(0, colon + 1) + "***" + text.substring(at);
    }

    String display() {
        return masked(text);
    }

    private static int parsePort(String text, String portText) {
        try {
            int port = Integer.parseInt(portText);
            if (port >= 1 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // reported below, with the text
        }
        throw new RocketException(masked(text) + ": bad port '" + portText + "' (1 to 65535)");
    }
}
