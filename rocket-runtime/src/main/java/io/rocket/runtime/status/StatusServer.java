package io.rocket.runtime.status;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.rocket.core.RocketException;
import io.rocket.core.status.StatusPage;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ServiceLoader;
import java.util.function.Supplier;

/**
 * A node's status endpoint: the JDK's HTTP server on one port, serving {@code /status} (JSON), {@code /metrics}
 * (Prometheus text) and {@code /} (the live page, where a {@link StatusPage} is on the class path). Its one thread
 * works only when asked: the figures are read at each request, so an endpoint nobody asks costs nothing. With a
 * cluster secret every request must carry the {@link StatusToken}; a request without it gets 401 and nothing else.
 */
public final class StatusServer implements AutoCloseable {
    private final HttpServer server;
    private final StatusToken token;
    private final String url;

    /**
     * What the endpoint serves, each read when asked.
     *
     * @param status  the status document as JSON
     * @param metrics the metrics text
     */
    public record Content(Supplier<String> status, Supplier<String> metrics) {
    }

    /**
     * Starts the endpoint.
     *
     * @param options the port, the address to listen on and the cluster secret
     * @param content what it serves
     * @throws RocketException when the port cannot be bound
     */
    public StatusServer(StatusOptions options, Content content) {
        this.token = StatusToken.of(options.security());
        try {
            InetAddress bind = InetAddress.getByName(options.bind());
            server = HttpServer.create(new InetSocketAddress(bind, options.port()), 16);
            String host = bind.isAnyLocalAddress() ? InetAddress.getLocalHost().getHostName()
                    : options.bind().contains(":") ? "[" + options.bind() + "]" : options.bind();
            url = "http://" + host + ":" + server.getAddress().getPort() + "/";
        } catch (IOException e) {
            throw new RocketException("--status-port " + options.port() + " on " + options.bind() + ": "
                    + e.getMessage(), e);
        }
        String page = page();
        server.createContext("/", exchange -> {
            try (exchange) {
                serve(exchange, content, page);
            }
        });
        server.start();
    }

    /** @return the endpoint's URL, ending in {@code /} */
    public String url() {
        return url;
    }

    private void serve(HttpExchange exchange, Content content, String page) throws IOException {
        if (!exchange.getRequestMethod().equals("GET") && !exchange.getRequestMethod().equals("HEAD")) {
            send(exchange, 405, "text/plain; charset=utf-8", "GET only\n");
            return;
        }
        if (token != null && !token.matches(offered(exchange))) {
            exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"rocket\"");
            send(exchange, 401, "text/plain; charset=utf-8", "this run asks for the token of its cluster secret "
                    + "(rocket status --cluster-secret-file FILE)\n");
            return;
        }
        switch (exchange.getRequestURI().getPath()) {
            case "/status" -> send(exchange, 200, "application/json", content.status().get());
            case "/metrics" -> send(exchange, 200, PrometheusText.CONTENT_TYPE, content.metrics().get());
            case "/" -> {
                if (page == null) {
                    send(exchange, 404, "text/plain; charset=utf-8", "no live page here: see /status and /metrics\n");
                } else {
                    send(exchange, 200, "text/html; charset=utf-8", page);
                }
            }
            default -> send(exchange, 404, "text/plain; charset=utf-8", "not found: see /, /status and /metrics\n");
        }
    }

    /** The token a request offers: its bearer token, or a {@code token} query parameter (a browser's). */
    private static String offered(HttpExchange exchange) {
        String header = exchange.getRequestHeaders().getFirst("Authorization");
        if (header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return header.substring(7).trim();
        }
        String query = exchange.getRequestURI().getRawQuery();
        if (query != null) {
            for (String part : query.split("&")) {
                if (part.startsWith("token=")) {
                    return URLDecoder.decode(part.substring(6), StandardCharsets.UTF_8);
                }
            }
        }
        return null;
    }

    private static void send(HttpExchange exchange, int code, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        boolean head = exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(code, head ? -1 : bytes.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    private static String page() {
        return ServiceLoader.load(StatusPage.class).findFirst().map(StatusPage::html).orElse(null);
    }

    /** Stops serving at once: a request in progress is cut off. */
    @Override
    public void close() {
        server.stop(0);
    }
}
