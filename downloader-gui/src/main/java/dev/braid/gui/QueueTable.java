package dev.braid.gui;

import dev.braid.store.DownloadState;
import java.util.Comparator;
import java.util.function.Function;
import javafx.beans.value.ChangeListener;
import javafx.beans.value.ObservableValue;
import javafx.collections.ObservableList;
import javafx.css.PseudoClass;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.SelectionMode;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.StackPane;

/** The queue: one row per download, sortable by every column, several rows selectable. */
final class QueueTable extends TableView<DownloadRow> {
  QueueTable(ObservableList<DownloadRow> rows) {
    super(rows);
    getStyleClass().add("queue-table");
    setId("queue");
    getSelectionModel().setSelectionMode(SelectionMode.MULTIPLE);
    setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
    Label empty = new Label("No downloads yet.\nPress Ctrl+N, paste a URL, or drop links or a list of URLs here.");
    empty.getStyleClass().add("placeholder");
    setPlaceholder(empty);

    TableColumn<DownloadRow, String> name = column("Name", DownloadRow::nameProperty, 320);
    name.setId("col-name");
    name.setCellFactory(c -> new NameCell());
    TableColumn<DownloadRow, Number> size = column("Size", DownloadRow::lengthProperty, 90);
    size.setCellFactory(c -> text(v -> Formats.bytes(v.longValue()), "numeric"));
    TableColumn<DownloadRow, Number> progress = column("Progress", DownloadRow::fractionProperty, 170);
    progress.setCellFactory(c -> new ProgressCell());
    TableColumn<DownloadRow, Number> speed = column("Speed", DownloadRow::speedProperty, 100);
    speed.setCellFactory(c -> text(v -> v.doubleValue() > 0 ? Formats.speed(v.doubleValue()) : "", "numeric"));
    TableColumn<DownloadRow, Long> eta = column("ETA", DownloadRow::etaSecondsProperty, 80);
    eta.setCellFactory(c -> text(v -> Formats.eta(java.time.Duration.ofSeconds(v)), "numeric"));
    // unknown times sort after every known one, in both directions
    eta.setComparator(Comparator.nullsLast(Comparator.naturalOrder()));
    TableColumn<DownloadRow, Number> connections = column("Conn.", DownloadRow::connectionsProperty, 60);
    connections.setCellFactory(c -> text(v -> v.intValue() > 0 ? v.toString() : "", "numeric"));
    TableColumn<DownloadRow, DownloadState> status = column("Status", DownloadRow::statusProperty, 110);
    status.setCellFactory(c -> new StatusCell());
    getColumns().setAll(java.util.List.of(name, size, progress, speed, eta, connections, status));
    setRowFactory(t -> new StatusRow());
  }

  /** A row that carries its download's status as a pseudo-class (e.g. {@code :paused}) for the stylesheet. */
  private static final class StatusRow extends TableRow<DownloadRow> {
    private final ChangeListener<DownloadState> onStatus = (o, a, b) -> mark(b);
    private DownloadRow watched;

    @Override
    protected void updateItem(DownloadRow item, boolean empty) {
      super.updateItem(item, empty);
      if (watched != null) {
        watched.statusProperty().removeListener(onStatus);
      }
      watched = empty ? null : item;
      if (watched != null) {
        watched.statusProperty().addListener(onStatus);
      }
      mark(watched == null ? null : watched.status());
    }

    private void mark(DownloadState status) {
      for (DownloadState s : DownloadState.values()) {
        pseudoClassStateChanged(PseudoClass.getPseudoClass(s.name().toLowerCase(java.util.Locale.ROOT)), s == status);
      }
    }
  }

  private static <T> TableColumn<DownloadRow, T> column(String title, Function<DownloadRow, ObservableValue<T>> value, double width) {
    TableColumn<DownloadRow, T> c = new TableColumn<>(title);
    c.setCellValueFactory(f -> value.apply(f.getValue()));
    c.setPrefWidth(width);
    return c;
  }

  private static <T> TableCell<DownloadRow, T> text(Function<T, String> format, String styleClass) {
    TableCell<DownloadRow, T> cell = new TableCell<>() {
      @Override
      protected void updateItem(T item, boolean empty) {
        super.updateItem(item, empty);
        setText(empty || item == null ? null : format.apply(item));
      }
    };
    cell.getStyleClass().add(styleClass);
    return cell;
  }

  /** A thin bar with the percentage beside it; indeterminate while the size is unknown. */
  private static final class ProgressCell extends TableCell<DownloadRow, Number> {
    private final ProgressBar bar = new ProgressBar();
    private final Label percent = new Label();
    private final StackPane box = new StackPane(bar, percent);

    ProgressCell() {
      bar.setMaxWidth(Double.MAX_VALUE);
      percent.getStyleClass().add("percent");
      StackPane.setAlignment(percent, Pos.CENTER_RIGHT);
      box.getStyleClass().add("progress-box");
      setGraphic(null);
    }

    @Override
    protected void updateItem(Number item, boolean empty) {
      super.updateItem(item, empty);
      if (empty || item == null) {
        setGraphic(null);
        return;
      }
      double f = item.doubleValue();
      bar.setProgress(f < 0 ? ProgressBar.INDETERMINATE_PROGRESS : f);
      // a bar at 0 still paints a rounded stub: hide it until there is something to show
      bar.getStyleClass().remove("empty");
      if (f == 0) {
        bar.getStyleClass().add("empty");
      }
      percent.setText(f < 0 ? "" : String.format(java.util.Locale.ROOT, "%.0f%%", Math.floor(f * 100)));
      setGraphic(box);
    }
  }

  /** The name, with the URL (and the error of a failed download) as its tooltip. */
  private static final class NameCell extends TableCell<DownloadRow, String> {
    private final Tooltip tip = new Tooltip();

    NameCell() {
      // the text is read when the tooltip opens: the row's error changes without its name changing
      tip.setOnShowing(e -> {
        DownloadRow row = getTableRow() == null ? null : getTableRow().getItem();
        if (row != null) {
          DownloadSnapshot s = row.snapshot();
          tip.setText(s.error() == null ? s.url() : s.url() + "\n" + s.error());
        }
      });
    }

    @Override
    protected void updateItem(String item, boolean empty) {
      super.updateItem(item, empty);
      DownloadRow row = empty ? null : getTableRow().getItem();
      if (row == null) {
        setText(null);
        setTooltip(null);
        return;
      }
      setText(item);
      setTooltip(tip);
    }
  }

  /** The status as a coloured pill. */
  private static final class StatusCell extends TableCell<DownloadRow, DownloadState> {
    private final Label pill = new Label();

    StatusCell() {
      pill.getStyleClass().add("status-pill");
    }

    @Override
    protected void updateItem(DownloadState item, boolean empty) {
      super.updateItem(item, empty);
      if (empty || item == null) {
        setGraphic(null);
        return;
      }
      pill.setText(StateLabels.label(item));
      pill.getStyleClass().removeIf(s -> s.startsWith("status-") && !s.equals("status-pill"));
      pill.getStyleClass().add(StateLabels.styleClass(item));
      setGraphic(pill);
    }
  }
}
