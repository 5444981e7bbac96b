"""Models stage: leave-out layers, BERT and GloVe variants, masking schemes, training, prediction.

Thesis 5.4. Modules: :mod:`models.variants` (Tables 5.2 and 5.3), :mod:`models.masking` (Table 5.4,
candidate vectors), :mod:`models.leave_out` (LOConv, LOBiRNN), :mod:`models.embeddings` (BERT via TF
Hub, combined GloVe), :mod:`models.architecture` (variant -> tf_keras model), :mod:`models.input_pipeline`
(TFRecords -> masked training batches), :mod:`models.optimization` (Table 5.5, weighted BCE),
:mod:`models.training` (the training loop), :mod:`models.model_dir` (what a trained model directory
holds) and :mod:`models.predict` (the scoring API). ``pretrain*``/``encoder``/``hub_export`` build
a small BERT of our own.
"""
