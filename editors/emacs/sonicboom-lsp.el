;;; sonicboom-lsp.el --- SonicBoom under lsp-mode  -*- lexical-binding: t -*-

;;; Commentary:

;; sb-lsp as an lsp-mode client (server id `sonicboom'), an add-on: it runs
;; beside the buffer's usual language server.  Requests go to its workspace
;; only.  It tells the server it runs the free-text code action's command,
;; handles that command and the presets' sonicboom.edit asynchronously
;; (lsp-mode would otherwise wait for the answer, `lsp-response-timeout'
;; seconds at most), and shows the progress of our edits in the mode line
;; (lsp-mode's own progress display keeps the other servers' progress).

;;; Code:

(require 'lsp-mode)
(require 'sonicboom)
(require 'sonicboom-preview)

(defun sonicboom-lsp--workspace ()
  "The sonicboom workspace serving the current buffer, or nil."
  (and (bound-and-true-p lsp-mode)
       (cl-find-if (lambda (ws) (eq (lsp--client-server-id (lsp--workspace-client ws))
                                    'sonicboom))
                   (lsp-workspaces))))

(defun sonicboom-lsp--backend-for (workspace)
  "The `sonicboom--start' backend over lsp-mode WORKSPACE."
  (list :request
        (lambda (params on-result on-error)
          (with-lsp-workspace workspace
            (lsp-request-async "workspace/executeCommand" params on-result
                               :mode 'detached :error-handler on-error)))
        :notify (lambda (method params)
                  (with-lsp-workspace workspace (lsp-notify method params)))
        :uri #'lsp--buffer-uri
        :buffer-of-uri (lambda (uri) (find-buffer-visiting (lsp--uri-to-path uri)))
        :position-to-point #'lsp--position-to-point
        :version (lambda () (and (boundp 'lsp--cur-version) lsp--cur-version))))

(defun sonicboom-lsp--backend ()
  "The backend when sb-lsp serves the current buffer under lsp-mode."
  (let ((ws (sonicboom-lsp--workspace)))
    (and ws (sonicboom-lsp--backend-for ws))))

(defun sonicboom-lsp--command-arg (action)
  "The first argument of code action command ACTION."
  (let ((args (sonicboom--get action "arguments")))
    (and (> (length args) 0) (elt args 0))))

(defun sonicboom-lsp--run-preset (action)
  "A preset code action: sonicboom.edit, asynchronously."
  (sonicboom--start (sonicboom-lsp--backend)
                    (sonicboom--to-plist (sonicboom-lsp--command-arg action))))

(defun sonicboom-lsp--run-prompt (action)
  "The free-text code action: ask for the instruction, then edit."
  (sonicboom--edit-with-instruction (sonicboom-lsp--backend)
                                    (sonicboom-lsp--command-arg action)))

(defun sonicboom-lsp--on-progress (workspace params)
  "$/progress: ours to our display, any other to lsp-mode's.
lsp-mode 8.0 puts a report's message into the mode line unescaped, so
\"0% of drafts accepted\" would show there as \"0of drafts accepted\"
beside our correct one."
  (let ((token (sonicboom--get params "token")))
    (if (sonicboom--own-token-p token)
        (sonicboom--progress token (sonicboom--get params "value"))
      (funcall lsp-progress-function workspace params))))

(defun sonicboom-lsp--on-apply-edit (workspace params)
  "workspace/applyEdit: to the preview when `sonicboom-preview', else
applied at once as lsp-mode does."
  (let ((edit (sonicboom--get params "edit")))
    (if sonicboom-preview
        (sonicboom-preview-workspace-edit (sonicboom-lsp--backend-for workspace) edit)
      (list :applied (condition-case err
                         (prog1 t (lsp--apply-workspace-edit edit 'server-requested))
                       (error (lsp--error "Failed to apply edits with message %s"
                                          (error-message-string err))
                              :json-false))))))

(defun sonicboom-lsp--setup ()
  "Register the sonicboom client with lsp-mode."
  (add-hook 'sonicboom--backends #'sonicboom-lsp--backend)
  (lsp-register-client
   (make-lsp-client
    :new-connection (lsp-stdio-connection (lambda () sonicboom-server-command))
    :major-modes sonicboom-modes
    :server-id 'sonicboom
    :add-on? t
    :priority -1
    :initialization-options #'sonicboom--init-options
    :custom-capabilities '((experimental . ((sonicboom . ((instructionPrompt . t))))))
    :notification-handlers (ht ("$/progress" #'sonicboom-lsp--on-progress))
    :request-handlers (ht ("workspace/applyEdit" #'sonicboom-lsp--on-apply-edit))
    :action-handlers (ht ("sonicboom.edit" #'sonicboom-lsp--run-preset)
                         ("sonicboom.editWithInstruction" #'sonicboom-lsp--run-prompt)))))

(provide 'sonicboom-lsp)
;;; sonicboom-lsp.el ends here
