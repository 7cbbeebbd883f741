"""scikit-learn estimators of dtree's algorithms (the ``sklearn`` extra: ``pip install 'dtree[sklearn]'``).

``ID3Classifier``, ``C45Classifier``, ``CARTClassifier`` and ``CARTRegressor`` take ``dtree train``'s
options as parameters (``min_leaf``, ``criterion``, ``missing``, ``ccp_alpha``, ...; ``random_state`` is
``--seed``) and follow scikit-learn's conventions: ``fit(X, y, sample_weight=None)``, ``predict``,
``predict_proba``, ``score``, ``classes_``, ``n_features_in_``, ``feature_names_in_``,
``feature_importances_``, cloning and pickling. A fitted estimator's tree is ``model_`` (a ``dtcli.Model``:
``model_.save(path)`` writes a model file ``dtree predict`` reads) and it shows as the tree's picture in
Jupyter. Importing ``dtcli`` does not import this module (nor scikit-learn).
"""

from dtcli.sklearn.estimators import C45Classifier, CARTClassifier, CARTRegressor, ID3Classifier

__all__ = ["ID3Classifier", "C45Classifier", "CARTClassifier", "CARTRegressor"]
