package com.example.billing;

import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Renders invoices, reminders and credit notes as plain text for the
 * e-mail body. Amounts are kept in minor units (cents) everywhere; only
 * this class turns them into something a person reads.
 */
public final class InvoiceTextRenderer {

    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("d MMMM yyyy", Locale.ENGLISH);
    private static final int LINE_WIDTH = 64;

    public record LineItem(String description, int quantity, long unitCents) {
        public LineItem {
            Objects.requireNonNull(description, "description");
            if (quantity <= 0) {
                throw new IllegalArgumentException("quantity must be positive: " + quantity);
            }
        }

        long totalCents() {
            return Math.multiplyExact(unitCents, (long) quantity);
        }
    }

    public record Invoice(String number, String customer, String currency, LocalDate issued,
                          LocalDate due, List<LineItem> items) {
    }

    private final String companyName;

    public InvoiceTextRenderer(String companyName) {
        this.companyName = Objects.requireNonNull(companyName, "companyName");
    }

    public String renderInvoice(Invoice invoice) {
        StringBuilder out = new StringBuilder();
        out.append(companyName).append('\n');
        out.append("Invoice ").append(invoice.number())
           .append(" issued ").append(DATE.format(invoice.issued())).append("\n\n");
        out.append("Bill to: ").append(invoice.customer()).append("\n\n");

        long total = 0;
        for (LineItem item : invoice.items()) {
            long cents = item.totalCents();
            total = Math.addExact(total, cents);
            String sign = cents < 0 ? "-" : "";
            long abs = Math.abs(cents);
            String amount = String.format(Locale.ROOT, "%s%s %,d.%02d",
                    sign, invoice.currency(), abs / 100, abs % 100);
            out.append(padLine(item.quantity() + " x " + item.description(), amount)).append('\n');
        }
        out.append("-".repeat(LINE_WIDTH)).append('\n');

        String sign = total < 0 ? "-" : "";
        long abs = Math.abs(total);
        String totalText = String.format(Locale.ROOT, "%s%s %,d.%02d",
                sign, invoice.currency(), abs / 100, abs % 100);
        out.append(padLine("Total", totalText)).append("\n\n");
        out.append("Please pay by ").append(DATE.format(invoice.due())).append(".\n");
        return out.toString();
    }

    public String renderReminder(Invoice invoice, long paidCents, LocalDate today) {
        long total = 0;
        for (LineItem item : invoice.items()) {
            total = Math.addExact(total, item.totalCents());
        }
        long open = total - paidCents;
        if (open <= 0) {
            throw new IllegalStateException("invoice " + invoice.number() + " is paid");
        }

        String sign = open < 0 ? "-" : "";
        long abs = Math.abs(open);
        String openText = String.format(Locale.ROOT, "%s%s %,d.%02d",
                sign, invoice.currency(), abs / 100, abs % 100);

        long daysLate = ChronoUnit.DAYS.between(invoice.due(), today);
        StringBuilder out = new StringBuilder();
        out.append("Dear ").append(invoice.customer()).append(",\n\n");
        out.append("our invoice ").append(invoice.number()).append(" of ")
           .append(DATE.format(invoice.issued())).append(" still shows ")
           .append(openText).append(" open");
        if (daysLate > 0) {
            out.append(", ").append(daysLate).append(daysLate == 1 ? " day" : " days")
               .append(" past the due date");
        }
        out.append(".\n\nIf you have already paid, please ignore this message.\n\n");
        out.append(companyName).append('\n');
        return out.toString();
    }

    public String renderCreditNote(Invoice invoice, List<LineItem> returned, String reason) {
        if (returned.isEmpty()) {
            throw new IllegalArgumentException("a credit note needs at least one item");
        }
        List<String> lines = new ArrayList<>();
        long credit = 0;
        for (LineItem item : returned) {
            long cents = Math.negateExact(item.totalCents());
            credit = Math.addExact(credit, cents);
            String sign = cents < 0 ? "-" : "";
            long abs = Math.abs(cents);
            String amount = String.format(Locale.ROOT, "%s%s %,d.%02d",
                    sign, invoice.currency(), abs / 100, abs % 100);
            lines.add(padLine(item.quantity() + " x " + item.description(), amount));
        }

        StringBuilder out = new StringBuilder();
        out.append(companyName).append('\n');
        out.append("Credit note for invoice ").append(invoice.number()).append("\n\n");
        out.append("Reason: ").append(reason).append("\n\n");
        for (String line : lines) {
            out.append(line).append('\n');
        }
        out.append("-".repeat(LINE_WIDTH)).append('\n');

        String sign = credit < 0 ? "-" : "";
        long abs = Math.abs(credit);
        String creditText = String.format(Locale.ROOT, "%s%s %,d.%02d",
                sign, invoice.currency(), abs / 100, abs % 100);
        out.append(padLine("Credit", creditText)).append('\n');
        return out.toString();
    }

    // Left text, right-aligned amount; text that would collide with the
    // amount is cut and marked with an ellipsis rather than wrapped.
    private static String padLine(String left, String right) {
        int room = LINE_WIDTH - right.length() - 1;
        if (left.length() > room) {
            left = left.substring(0, Math.max(0, room - 1)) + "\u2026";
        }
        return left + " ".repeat(LINE_WIDTH - left.length() - right.length()) + right;
    }

    public static void main(String[] args) {
        InvoiceTextRenderer renderer = new InvoiceTextRenderer("Northwind Tools Ltd");
        Invoice invoice = new Invoice("2024-0117", "Harbor Cafe", "EUR",
                LocalDate.of(2024, 3, 1), LocalDate.of(2024, 3, 31),
                List.of(new LineItem("Espresso machine service", 1, 18_500),
                        new LineItem("Replacement gasket", 3, 1_250)));
        System.out.println(renderer.renderInvoice(invoice));
        System.out.println(renderer.renderReminder(invoice, 5_000, LocalDate.of(2024, 4, 12)));
        System.out.println(renderer.renderCreditNote(invoice,
                List.of(new LineItem("Replacement gasket", 1, 1_250)), "returned unused"));
    }
}
