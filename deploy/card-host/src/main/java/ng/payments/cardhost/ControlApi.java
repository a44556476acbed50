package ng.payments.cardhost;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import org.yaml.snakeyaml.error.YAMLException;

import ng.payments.cardhost.Ledger.Totals;

/**
 * The HTTP control API, on the ISO port's address, for tests and people: faults, going down, what
 * arrived, the totals. JSON in and out.
 *
 * <pre>
 * PUT    /faults          [{"pan"?, "mti"? (0200), "action": delay|drop|twice|close, "ms"?, "times"?}]
 * DELETE /faults
 * POST   /down            {"ms": 30000}
 * GET    /messages?rrn=R  [{"mti", "stan", "de39", "time"}]
 * GET    /totals?date=MMDD
 * GET    /health
 * </pre>
 */
final class ControlApi {
    private final Faults faults;
    private final IsoEndpoint endpoint;
    private final MessageLog messages;
    private final Ledger ledger;

    ControlApi(Faults faults, IsoEndpoint endpoint, MessageLog messages, Ledger ledger) {
        this.faults = faults;
        this.endpoint = endpoint;
        this.messages = messages;
        this.ledger = ledger;
    }

    void start(String bind, int port) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(bind, port), 0);
        server.createContext("/", this::handle);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.start();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try {
            route(exchange);
        } catch (IllegalArgumentException | YAMLException e) {
            reply(exchange, 400, Map.of("error", String.valueOf(e.getMessage())));
        } catch (RuntimeException e) {
            CardHost.log("control API: " + e);
            reply(exchange, 500, Map.of("error", e.toString()));
        } finally {
            exchange.close();
        }
    }

    private void route(HttpExchange exchange) throws IOException {
        String route = exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath();
        Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
        switch (route) {
            case "PUT /faults" -> {
                faults.replace(body(exchange));
                reply(exchange, 204, null);
            }
            case "DELETE /faults" -> {
                faults.clear();
                reply(exchange, 204, null);
            }
            case "POST /down" -> {
                if (!(body(exchange) instanceof Map<?, ?> down) || !(down.get("ms") instanceof Number ms)) {
                    throw new IllegalArgumentException("expected {\"ms\": <milliseconds>}");
                }
                endpoint.down(ms.longValue());
                reply(exchange, 204, null);
            }
            case "GET /messages" -> reply(exchange, 200, messages.of(required(query, "rrn")));
            case "GET /totals" -> reply(exchange, 200, totals(required(query, "date")));
            case "GET /health" -> reply(exchange, 200, Map.of("status", "up"));
            default -> reply(exchange, 404, Map.of("error", "no " + route));
        }
    }

    private Map<String, Object> totals(String date) {
        Totals totals = ledger.totals(date);
        long net = totals.net();
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("date", date);
        json.put("refundCount", totals.refundCount());
        json.put("refundAmount", totals.refundAmount());
        json.put("purchaseCount", totals.purchaseCount());
        json.put("purchaseAmount", totals.purchaseAmount());
        json.put("reversedCount", totals.reversedCount());
        json.put("reversedAmount", totals.reversedAmount());
        json.put("net", (net < 0 ? "D" : "C") + String.format("%016d", Math.abs(net)));
        return json;
    }

    private static Object body(HttpExchange exchange) throws IOException {
        return Json.parse(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
    }

    private static String required(Map<String, String> query, String name) {
        String value = query.get(name);
        if (value == null || value.isEmpty()) throw new IllegalArgumentException("?" + name + "= is required");
        return value;
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> query = new HashMap<>();
        if (raw == null) return query;
        for (String pair : raw.split("&")) {
            int equals = pair.indexOf('=');
            if (equals > 0) {
                query.put(pair.substring(0, equals), URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
            }
        }
        return query;
    }

    private static void reply(HttpExchange exchange, int status, Object json) throws IOException {
        if (json == null) {
            exchange.sendResponseHeaders(status, -1);
            return;
        }
        byte[] body = Json.write(json).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
