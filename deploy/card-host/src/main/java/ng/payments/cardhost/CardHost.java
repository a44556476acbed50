package ng.payments.cardhost;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The development ISO 8583 host (shared/spec/card-network.md, "The development host"), started by
 * deploy/card-host/card-host.sh, which sets every variable read here. CARD_HOST_BIND is the address
 * both ports listen on: 127.0.0.1 unless a container asks for 0.0.0.0. A development and test
 * tool: it runs on jPOS (AGPL), which never goes into the platform's images.
 */
public final class CardHost {
    private CardHost() {}

    public static void main(String[] args) throws Exception {
        String bind = envOr("CARD_HOST_BIND", "127.0.0.1");
        int port = Integer.parseInt(env("CARD_HOST_PORT"));
        int controlPort = Integer.parseInt(env("CARD_HOST_CONTROL_PORT"));
        Path dataDir = Files.createDirectories(Path.of(env("CARD_HOST_DATA_DIR")));
        PinBlocks pinBlocks = new PinBlocks(env("CARD_HOST_ZONE_PIN_KEY"));
        Catalogue catalogue = Catalogue.load(Path.of(env("CARD_HOST_CATALOGUE")));

        Ledger ledger = new Ledger(dataDir.resolve("journal.tsv"));
        Faults faults = new Faults();
        MessageLog messages = new MessageLog();
        ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2);
        Responder responder = new Responder(new Authoriser(catalogue, pinBlocks, ledger), ledger);
        RequestListener listener = new RequestListener(responder, faults, messages, scheduler);
        IsoEndpoint endpoint = new IsoEndpoint(bind, port, listener, scheduler);

        // The control API first: whoever waits for the ISO port can use both once it answers.
        new ControlApi(faults, endpoint, messages, ledger).start(bind, controlPort);
        endpoint.open();
        log("ISO 8583 on " + bind + ":" + port + ", control API on " + bind + ":" + controlPort);
    }

    static void log(String line) {
        System.out.println(Instant.now() + " " + line);
    }

    private static String env(String name) {
        String value = envOr(name, null);
        if (value == null) throw new IllegalStateException(name + " is not set");
        return value;
    }

    private static String envOr(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isEmpty() ? fallback : value;
    }
}
