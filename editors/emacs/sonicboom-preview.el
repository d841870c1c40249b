;;; sonicboom-preview.el --- An edit shown before it is applied  -*- lexical-binding: t -*-

;;; Commentary:

;; The server's answer (a workspace/applyEdit) shown in its buffer before
;; anything changes, accepted or rejected hunk by hunk with smerge-like
;; keys.  The backends route the edit here when `sonicboom-preview' is on.
;;
;; Each TextEdit is one hunk (the server makes one per block of changed
;; lines), widened to whole lines: an overlay over the lines it replaces
;; (face `sonicboom-preview-removed'), the lines it would put there shown
;; right below them (`sonicboom-preview-added', an after-string).  The
;; overlays move with the text as other hunks are accepted.  Accepting a
;; hunk replaces exactly its lines (one undo step; accepting all is one
;; undo step for every hunk left).  A change to the buffer by anything but
;; the preview closes it: it never writes over the user's typing.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'seq)
(require 'diff-mode)                    ; the faces we inherit
(require 'sonicboom)

(defface sonicboom-preview-removed '((t :inherit diff-removed))
  "The lines a previewed hunk would replace."
  :group 'sonicboom)

(defface sonicboom-preview-added '((t :inherit diff-added))
  "The lines a previewed hunk would put in their place."
  :group 'sonicboom)

(defface sonicboom-preview-header '((t :inherit shadow))
  "The line above each previewed hunk."
  :group 'sonicboom)

(defvar-local sonicboom-preview--hunks nil
  "The hunks not yet decided, in buffer order: overlays with the
properties `sonicboom-old' and `sonicboom-new' (the texts).")

(defvar-local sonicboom-preview--state nil
  "The open preview: a plist (:total :accepted :notify).")

(defvar-local sonicboom-preview--applying nil
  "Non-nil while the preview itself changes the buffer.")

(defvar sonicboom-preview-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "C-c ^ RET") #'sonicboom-preview-accept)
    (define-key map (kbd "C-c ^ k") #'sonicboom-preview-reject)
    (define-key map (kbd "C-c ^ a") #'sonicboom-preview-accept-all)
    (define-key map (kbd "C-c ^ K") #'sonicboom-preview-reject-all)
    (define-key map (kbd "C-c ^ n") #'sonicboom-preview-next)
    (define-key map (kbd "C-c ^ p") #'sonicboom-preview-previous)
    map)
  "Keys while a preview is open, after smerge-mode's: RET keeps the
hunk at point, k kills it, a keeps all, K kills all, n and p move.")

(define-minor-mode sonicboom-preview-mode
  "An edit of SonicBoom's is previewed in this buffer.
\\{sonicboom-preview-mode-map}"
  :lighter " SB-Preview"
  :keymap sonicboom-preview-mode-map
  (if sonicboom-preview-mode
      (add-hook 'after-change-functions #'sonicboom-preview--after-change nil t)
    (remove-hook 'after-change-functions #'sonicboom-preview--after-change t)))

;;;; Hunks

(defun sonicboom-preview--split (text)
  "TEXT's lines (a last empty line when TEXT ends with a newline)."
  (split-string text "\n"))

(defun sonicboom-preview--groups (spans)
  "SPANS, (BEG END NEW-TEXT) sorted by BEG, grouped where their lines meet:
a list of (GBEG GEND SPANS), GBEG at a line's start, GEND at a line's end."
  (let (groups)
    (dolist (s spans)
      (let ((bol (save-excursion (goto-char (nth 0 s)) (line-beginning-position)))
            (eol (save-excursion (goto-char (nth 1 s)) (line-end-position)))
            (g (car groups)))
        (if (and g (<= bol (nth 1 g)))
            (setcar groups (list (nth 0 g) (max eol (nth 1 g)) (append (nth 2 g) (list s))))
          (push (list bol eol (list s)) groups))))
    (nreverse groups)))

(defun sonicboom-preview--group-hunk (group)
  "GROUP (see `sonicboom-preview--groups') as a hunk (BEG END OLD NEW):
BEG..END the whole lines it replaces (END past their newline), OLD and
NEW the texts; nil when the edits change nothing."
  (pcase-let* ((`(,gbeg ,gend ,spans) group)
               (old-text (buffer-substring-no-properties gbeg gend))
               (new-text old-text))
    (dolist (s (reverse spans))
      (setq new-text (concat (substring new-text 0 (- (nth 0 s) gbeg)) (nth 2 s)
                             (substring new-text (- (nth 1 s) gbeg)))))
    (let* ((old (sonicboom-preview--split old-text))
           (new (sonicboom-preview--split new-text))
           (head 0) (tail 0))
      (while (and (< head (length old)) (< head (length new))
                  (equal (nth head old) (nth head new)))
        (cl-incf head))
      (while (and (< tail (- (length old) head)) (< tail (- (length new) head))
                  (equal (nth (- (length old) tail 1) old) (nth (- (length new) tail 1) new)))
        (cl-incf tail))
      (let ((o (cl-subseq old head (- (length old) tail)))
            (n (cl-subseq new head (- (length new) tail))))
        (when (or o n)
          (save-excursion
            (goto-char gbeg)
            (forward-line head)
            (let* ((beg (point))
                   (end (progn (forward-line (length o)) (point)))
                   ;; the old lines end with their newline unless at the
                   ;; buffer's end without one
                   (nl (if (and (> end beg) (eq (char-before end) ?\n)) "\n" ""))
                   (join (lambda (ls) (if ls (concat (string-join ls "\n") nl) ""))))
              (when (and (= beg end) (null o))
                (setq nl "\n"))
              (list beg end (funcall join o) (funcall join n)))))))))

(defun sonicboom-preview-hunks (edits position-to-point)
  "EDITS (TextEdits of the current buffer) as hunks (BEG END OLD NEW),
in buffer order.  POSITION-TO-POINT turns an LSP position into a point of
the current buffer (the client's own conversion: it knows the encoding)."
  (let ((spans (mapcar (lambda (e)
                         (let ((r (sonicboom--get e "range")))
                           (list (funcall position-to-point (sonicboom--get r "start"))
                                 (funcall position-to-point (sonicboom--get r "end"))
                                 (sonicboom--get e "newText"))))
                       edits)))
    (setq spans (sort spans (lambda (a b) (< (car a) (car b)))))
    (delq nil (mapcar #'sonicboom-preview--group-hunk (sonicboom-preview--groups spans)))))

;;;; Showing and deciding

(defun sonicboom-preview--hint ()
  "The keys, as the header of each hunk says them."
  (substitute-command-keys
   "\\<sonicboom-preview-mode-map>\\[sonicboom-preview-accept] accept, \
\\[sonicboom-preview-reject] reject, \\[sonicboom-preview-accept-all] accept all, \
\\[sonicboom-preview-reject-all] reject all"))

(defun sonicboom-preview--draw (hunk index total)
  "An overlay showing HUNK, number INDEX of TOTAL."
  (pcase-let* ((`(,beg ,end ,old ,new) hunk)
               ;; front-advance: text put before a hunk (another hunk
               ;; accepted) stays out of it
               (ov (make-overlay beg end nil t nil)))
    (overlay-put ov 'sonicboom-old old)
    (overlay-put ov 'sonicboom-new new)
    (overlay-put ov 'face 'sonicboom-preview-removed)
    (overlay-put ov 'evaporate nil)
    (overlay-put ov 'before-string
                 (propertize (format "SonicBoom %d/%d: %s\n" index total
                                     (sonicboom-preview--hint))
                             'face 'sonicboom-preview-header))
    (overlay-put ov 'after-string (propertize new 'face 'sonicboom-preview-added))
    ov))

(defun sonicboom-preview--close (&optional message)
  "Closes the current buffer's preview, telling the user MESSAGE."
  (let ((notify (plist-get sonicboom-preview--state :notify)))
    (mapc #'delete-overlay sonicboom-preview--hunks)
    (setq sonicboom-preview--hunks nil
          sonicboom-preview--state nil)
    (sonicboom-preview-mode -1)
    (when (and message notify) (funcall notify message))))

(defun sonicboom-preview--summary ()
  (format "%d of %d change(s) applied" (plist-get sonicboom-preview--state :accepted)
          (plist-get sonicboom-preview--state :total)))

(defun sonicboom-preview--after-change (&rest _)
  "A change not made by the preview ends it: nothing more is applied."
  (when (and sonicboom-preview--state (not sonicboom-preview--applying))
    (sonicboom-preview--close
     (concat "the buffer changed during the preview; nothing more was applied ("
             (sonicboom-preview--summary) ")"))))

;;;; The provisional view while the model writes (previewStreaming)

(defface sonicboom-preview-writing '((t :inherit diff-changed))
  "The lines an edit is rewriting while the model writes."
  :group 'sonicboom)

(defvar-local sonicboom-preview--partial nil
  "The provisional view: (OVERLAY . TEXT shown), or nil.")

(defun sonicboom-preview-show-partial (buffer first last text)
  "Shows TEXT, the new text so far of lines FIRST..LAST-1 (0-based) of
BUFFER, below those lines until the edit's hunks replace it.  Nothing in
the buffer changes."
  (when (buffer-live-p buffer)
    (with-current-buffer buffer
      (sonicboom-preview-clear-partial buffer)
      (save-excursion
        (save-restriction
          (widen)
          (goto-char (point-min))
          (forward-line first)
          (let* ((beg (point))
                 (end (progn (forward-line (max 1 (- last first))) (point)))
                 (ov (make-overlay beg end nil t nil)))
            (overlay-put ov 'face 'sonicboom-preview-writing)
            (overlay-put ov 'after-string
                         (concat (if (bolp) "" "\n")
                                 (propertize "SonicBoom is writing (not applied yet):\n"
                                             'face 'sonicboom-preview-header)
                                 (propertize (concat text "\n")
                                             'face 'sonicboom-preview-added)))
            (setq sonicboom-preview--partial (cons ov text))))))))

(defun sonicboom-preview-clear-partial (buffer)
  "Removes BUFFER's provisional view, if any."
  (when (buffer-live-p buffer)
    (with-current-buffer buffer
      (when sonicboom-preview--partial
        (delete-overlay (car sonicboom-preview--partial))
        (setq sonicboom-preview--partial nil)))))

(defun sonicboom-preview-partial (&optional buffer)
  "The text of BUFFER's provisional view (default: the current one), or nil."
  (with-current-buffer (or buffer (current-buffer))
    (cdr sonicboom-preview--partial)))

(defun sonicboom-preview-offer (buffer edits position-to-point notify)
  "Shows EDITS (TextEdits for BUFFER) as a preview; returns the hunk count.
POSITION-TO-POINT converts an LSP position in BUFFER; NOTIFY is called
with what the user should be told.  An earlier preview there is closed."
  (sonicboom-preview-clear-partial buffer)
  (with-current-buffer buffer
    (when sonicboom-preview--state
      (sonicboom-preview--close "an earlier preview was replaced; nothing of it was applied"))
    (let* ((hunks (sonicboom-preview-hunks edits position-to-point))
           (i 0))
      (when hunks
        (setq sonicboom-preview--hunks
              (mapcar (lambda (h) (sonicboom-preview--draw h (cl-incf i) (length hunks)))
                      hunks)
              sonicboom-preview--state (list :total (length hunks) :accepted 0
                                             :notify notify))
        (sonicboom-preview-mode 1))
      (length hunks))))

(defun sonicboom-preview--at-point ()
  "The hunk at point, else the first after it, else the last."
  (or (cl-find-if (lambda (ov) (and (>= (point) (overlay-start ov))
                                    (or (< (point) (overlay-end ov))
                                        (= (point) (overlay-start ov)))))
                  sonicboom-preview--hunks)
      (cl-find-if (lambda (ov) (>= (overlay-start ov) (point))) sonicboom-preview--hunks)
      (car (last sonicboom-preview--hunks))))

(defun sonicboom-preview--apply (ov)
  "Replaces the lines of hunk OV by its new ones."
  (let ((beg (overlay-start ov)) (end (overlay-end ov))
        (sonicboom-preview--applying t))
    (save-excursion
      (goto-char beg)
      (delete-region beg end)
      (insert (overlay-get ov 'sonicboom-new)))))

(defun sonicboom-preview--decided (ovs accept)
  "Applies (ACCEPT non-nil) or drops hunks OVS, bottom first."
  (unless sonicboom-preview--state (user-error "SonicBoom: no preview in this buffer"))
  (dolist (ov (sort (copy-sequence ovs) (lambda (a b) (> (overlay-start a) (overlay-start b)))))
    (when accept
      (sonicboom-preview--apply ov)
      (plist-put sonicboom-preview--state :accepted
                 (1+ (plist-get sonicboom-preview--state :accepted))))
    (delete-overlay ov)
    (setq sonicboom-preview--hunks (delq ov sonicboom-preview--hunks)))
  (unless sonicboom-preview--hunks
    (sonicboom-preview--close (concat "preview done: " (sonicboom-preview--summary)))))

(defun sonicboom-preview-accept ()
  "Apply the previewed hunk at point (or the next one)."
  (interactive)
  (sonicboom-preview--decided (list (sonicboom-preview--at-point)) t))

(defun sonicboom-preview-reject ()
  "Drop the previewed hunk at point (or the next one)."
  (interactive)
  (sonicboom-preview--decided (list (sonicboom-preview--at-point)) nil))

(defun sonicboom-preview-accept-all ()
  "Apply every previewed hunk left (one undo step)."
  (interactive)
  (sonicboom-preview--decided sonicboom-preview--hunks t))

(defun sonicboom-preview-reject-all ()
  "Drop every previewed hunk left."
  (interactive)
  (sonicboom-preview--decided sonicboom-preview--hunks nil))

(defun sonicboom-preview-next ()
  "Move to the next previewed hunk."
  (interactive)
  (let ((ov (cl-find-if (lambda (ov) (> (overlay-start ov) (point))) sonicboom-preview--hunks)))
    (goto-char (overlay-start (or ov (car sonicboom-preview--hunks)
                                  (user-error "SonicBoom: no preview in this buffer"))))))

(defun sonicboom-preview-previous ()
  "Move to the previous previewed hunk."
  (interactive)
  (let ((ov (cl-find-if (lambda (ov) (< (overlay-start ov) (point)))
                        (reverse sonicboom-preview--hunks))))
    (goto-char (overlay-start (or ov (car (last sonicboom-preview--hunks))
                                  (user-error "SonicBoom: no preview in this buffer"))))))

(defun sonicboom-preview-pending ()
  "The hunks not yet decided in the current buffer: a list of (BEG OLD NEW)."
  (mapcar (lambda (ov) (list (overlay-start ov) (overlay-get ov 'sonicboom-old)
                             (overlay-get ov 'sonicboom-new)))
          sonicboom-preview--hunks))

(defun sonicboom-preview-workspace-edit (backend wedit)
  "Previews WEDIT (a WorkspaceEdit from sb-lsp) through BACKEND (see
`sonicboom--start'; here :buffer-of-uri, :position-to-point, :version).
Returns the answer to workspace/applyEdit: applied, as the client has
taken the edit into its preview, or not when a buffer is at another
version than the edit was made from (nothing is shown then)."
  (let ((changes nil) (shown 0) (stale nil))
    ;; documentChanges (versioned) where the client announced them, else
    ;; changes, a map from URI to edits
    (seq-doseq (dc (or (sonicboom--get wedit "documentChanges") []))
      (let ((doc (sonicboom--get dc "textDocument")))
        (push (list (sonicboom--get doc "uri") (sonicboom--get doc "version")
                    (sonicboom--get dc "edits"))
              changes)))
    (let ((map (sonicboom--get wedit "changes")))
      (cond ((hash-table-p map)
             (maphash (lambda (uri edits) (push (list uri nil edits) changes)) map))
            (map (cl-loop for (key edits) on map by #'cddr
                          do (push (list (substring (symbol-name key) 1) nil edits) changes)))))
    (dolist (c changes)
      (let ((buffer (funcall (plist-get backend :buffer-of-uri) (nth 0 c))))
        (if (not buffer)
            (setq stale "the edit's file is not open")
          (with-current-buffer buffer
            (let ((version (funcall (plist-get backend :version))))
              (if (and (nth 1 c) version (not (equal (nth 1 c) version)))
                  (setq stale "the buffer changed; nothing applied")
                (cl-incf shown (sonicboom-preview-offer
                                buffer (append (nth 2 c) nil)
                                (plist-get backend :position-to-point)
                                (lambda (msg) (sonicboom--say "%s" msg))))))))))
    (when (and sonicboom--running (> shown 0))
      (plist-put sonicboom--running :previewed shown))
    (if stale
        (list :applied :json-false :failureReason stale)
      (list :applied t))))

(defun sonicboom-preview-keys-hint ()
  "The keys of a preview, for the message that announces one."
  (concat (sonicboom-preview--hint)
          (substitute-command-keys
           ", \\<sonicboom-preview-mode-map>\\[sonicboom-preview-next] next")))

(provide 'sonicboom-preview)
;;; sonicboom-preview.el ends here
