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
 *
 * <p>It starts before the run's clock does (starting the JDK's server takes tens of milliseconds, a large part of a
 * short run) and answers 503 until the run {@linkplain #serve gives it its content}; the live page is made at its
 * first request, on the endpoint's thread, so a run nobody watches never loads it.
 */
public final class StatusServer implements AutoCloseable {
    private final HttpServer server;
    private final StatusToken token;
    private final String url;
    private volatile Content content;
    /** The live page, made at its first request; {@link #NO_PAGE} where none is on the class path. */
    private String page;
    private static final String NO_PAGE = "";

    /**
     * What the endpoint serves, each read when asked.
     *
     * @param status  the status document as JSON
     * @param metrics the metrics text
     */
    public record Content(Supplier<String> status, Supplier<String> metrics) {
    }

    /**
     * Starts the endpoint, serving {@code content}.
     *
     * @param options the port, the address to listen on and the cluster secret
     * @param content what it serves
     * @throws RocketException when the port cannot be bound
     */
    public StatusServer(StatusOptions options, Content content) {
        this(options);
        serve(content);
    }

    /**
     * Starts the endpoint with nothing to serve yet: it answers 503 until {@link #serve}.
     *
     * @param options the port, the address to listen on and the cluster secret
     * @throws RocketException when the port cannot be bound
     */
    public StatusServer(StatusOptions options) {
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
        server.createContext("/", exchange -> {
            try (exchange) {
                answer(exchange);
            }
        });
        server.start();
    }

    /**
     * Serves {@code value} from now on.
     *
     * @param value what the endpoint serves
     */
    public void serve(Content value) {
        content = value;
    }

    /** @return the endpoint's URL, ending in {@code /} */
    public String url() {
        return url;
    }

    private void answer(HttpExchange exchange) throws IOException {
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
        Content now = content;
        String path = exchange.getRequestURI().getPath();
        if (now == null && (path.equals("/status") || path.equals("/metrics"))) {
            exchange.getResponseHeaders().set("Retry-After", "1");
            send(exchange, 503, "text/plain; charset=utf-8", "the run is starting: ask again in a moment\n");
            return;
        }
        switch (path) {
            case "/status" -> send(exchange, 200, "application/json", now.status().get());
            case "/metrics" -> send(exchange, 200, PrometheusText.CONTENT_TYPE, now.metrics().get());
            case "/" -> {
                String page = page();
                if (page == NO_PAGE) {
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

    /** The live page, made once; called on the endpoint's one thread only. */
    private String page() {
        if (page == null) {
            page = ServiceLoader.load(StatusPage.class).findFirst().map(StatusPage::html).orElse(NO_PAGE);
        }
        return page;
    }

    /** Stops serving at once: a request in progress is cut off. */
    @Override
    public void close() {
        server.stop(0);
    }
}
